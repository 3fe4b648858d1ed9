package dev.hotpath.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HeaderArenaTest {
    private final HeaderArena arena = new HeaderArena();

    @Test
    void returnsEveryValueItWasGivenAcrossManyChunks() {
        List<String> values = new ArrayList<>();
        List<Long> handles = new ArrayList<>();
        for (int i = 0; i < 40_000; i++) {
            String value = "https://example.com/" + "x".repeat(i % 200) + "/" + i;
            values.add(value);
            handles.add(arena.add(value));
        }
        for (int i = 0; i < values.size(); i++) {
            assertThat(arena.value(handles.get(i))).isEqualTo(values.get(i));
            assertThat(arena.length(handles.get(i))).isEqualTo(values.get(i).length());
        }
        assertThat(arena.reservedBytes()).isGreaterThan(1L << 20);
    }

    @Test
    void exposesTheBytesOfAValueInItsChunk() {
        arena.add("first");
        long handle = arena.add("https://a.example/");
        String inChunk = new String(arena.array(handle), arena.offset(handle), arena.length(handle),
            java.nio.charset.StandardCharsets.ISO_8859_1);
        assertThat(inChunk).isEqualTo("https://a.example/");
    }

    @Test
    void keepsAValueOfTheLargestSizeWholeWhenItDoesNotFitTheCurrentChunk() {
        String largest = "a".repeat(HeaderArena.MAX_VALUE_BYTES);
        List<Long> handles = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            handles.add(arena.add(largest));
        }
        for (long handle : handles) {
            assertThat(arena.value(handle)).isEqualTo(largest);
        }
        assertThat(arena.value(arena.add(""))).isEmpty();
    }

    @Test
    void refusesValuesAHeaderCannotCarry() {
        assertThatThrownBy(() -> arena.add("https://a/\r\nSet-Cookie: x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> arena.add("tab\tis fine but NUL\0 is not")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> arena.add("caf\u00e9 \u2713")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> arena.add("a".repeat(HeaderArena.MAX_VALUE_BYTES + 1)))
            .isInstanceOf(IllegalArgumentException.class);
        assertThat(arena.reservedBytes()).isZero();
    }
}
