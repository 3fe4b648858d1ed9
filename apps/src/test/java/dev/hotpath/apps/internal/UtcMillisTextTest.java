package dev.hotpath.apps.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class UtcMillisTextTest {
    private static final DateTimeFormatter REFERENCE =
        DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static final long SEED = 20261130L;

    @Test
    void writesWhatTheJdkFormatterWritesForEveryWritableTime() {
        SplittableRandom random = new SplittableRandom(SEED);
        long end = UtcMillisText.END_OF_YEAR_9999.toEpochMilli();
        for (int i = 0; i < 10_000; i++) {
            // half across the whole range, half within a day of its edges, where carries happen
            long millis = i % 2 == 0 ? random.nextLong(end)
                : i % 4 == 1 ? random.nextLong(86_400_000L) : end - 1 - random.nextLong(86_400_000L);
            assertThat(UtcMillisText.format(millis)).as("format(%d)", millis).isEqualTo(REFERENCE.format(Instant.ofEpochMilli(millis)));
        }
    }

    @Test
    void writesTheEdgesOfItsRangeAndNothingBeyond() {
        assertThat(UtcMillisText.format(0)).isEqualTo("1970-01-01T00:00:00.000Z");
        assertThat(UtcMillisText.format(UtcMillisText.END_OF_YEAR_9999.toEpochMilli() - 1)).isEqualTo("9999-12-31T23:59:59.999Z");
        assertThat(UtcMillisText.format(1_796_011_200_123L)).isEqualTo("2026-11-30T04:00:00.123Z");
        assertThat(UtcMillisText.writable(0)).isTrue();
        assertThat(UtcMillisText.writable(UtcMillisText.END_OF_YEAR_9999.toEpochMilli() - 1)).isTrue();
        assertThat(UtcMillisText.writable(-1)).isFalse();
        assertThat(UtcMillisText.writable(UtcMillisText.END_OF_YEAR_9999.toEpochMilli())).isFalse();
    }
}
