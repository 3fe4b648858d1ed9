package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CompareCommandTest {
    @Test
    void pairsTheRoundsBeforeTakingTheMedian() {
        // Medians of each side give 3 / 2 = 1.5; the rounds' own ratios are 2, 1.5 and 2.
        assertThat(CompareCommand.pairedRatios(new double[] {2, 3, 8}, new double[] {1, 2, 4}))
            .isEqualTo("2.000, 1.500, 2.000 (median 2.000)");
    }

    @Test
    void takesTheMiddlePairOfAnEvenCount() {
        assertThat(CompareCommand.pairedRatios(new double[] {1, 3}, new double[] {1, 1})).isEqualTo("1.000, 3.000 (median 2.000)");
    }
}
