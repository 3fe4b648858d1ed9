package dev.hotpath.apps.users.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.testing.MutableClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CreationTimesTest {
    @Test
    void givesTheClocksWholeSecondAndOneArrayPerSecond() {
        MutableClock clock = new MutableClock(Instant.parse("2026-12-07T08:00:00.250Z"));
        CreationTimes times = new CreationTimes(clock);
        byte[] first = times.now();
        assertThat(text(first)).isEqualTo("2026-12-07T08:00:00Z");
        clock.advance(Duration.ofMillis(749));
        assertThat(times.now()).isSameAs(first);
        clock.advance(Duration.ofMillis(1));
        assertThat(text(times.now())).isEqualTo("2026-12-07T08:00:01Z");
        clock.advance(Duration.ofDays(400));
        assertThat(text(times.now())).isEqualTo("2028-01-11T08:00:01Z");
    }

    @Test
    void roundsATimeBeforeTheEpochDownAsTruncationDoes() {
        CreationTimes times = new CreationTimes(new MutableClock(Instant.parse("1969-12-31T23:59:59.500Z")));
        assertThat(text(times.now())).isEqualTo("1969-12-31T23:59:59Z");
    }

    private static String text(byte[] ascii) {
        return new String(ascii, StandardCharsets.US_ASCII);
    }
}
