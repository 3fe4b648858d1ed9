package dev.hotpath.http.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SeededCasesTest {
    @Test
    void drawsTheSameInputsOnEveryRun() {
        List<Integer> first = new ArrayList<>();
        List<Integer> second = new ArrayList<>();
        SeededCases.check(7, 50, random -> random.nextInt(), String::valueOf, first::add);
        SeededCases.check(7, 50, random -> random.nextInt(), String::valueOf, second::add);

        assertThat(first).hasSize(50).isEqualTo(second);
    }

    @Test
    void namesTheFailingCaseAndPrintsItsInput() {
        assertThatThrownBy(() -> SeededCases.check(7, 50, random -> random.nextInt(10), n -> "<" + n + ">",
            n -> assertThat(n).isLessThan(9)))
            .isInstanceOf(AssertionError.class)
            .hasMessageContaining("(seed 7 + ")
            .hasMessageContaining("input: <9>");
    }
}
