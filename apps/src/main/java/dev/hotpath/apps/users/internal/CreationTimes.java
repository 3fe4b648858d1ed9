package dev.hotpath.apps.users.internal;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;

/**
 * A new user's {@code created_at}: the clock's time in whole UTC seconds as ISO-8601 text
 * ({@code 2026-12-07T08:00:00Z}), as the ASCII bytes the stores write. The text of the latest second is
 * kept, so the creates of one second share one array instead of each making an {@link Instant}, its
 * truncation and its text; callers only read it. Safe from any thread: the kept second is one pair
 * behind a volatile field.
 */
final class CreationTimes {
    private record Second(long epochSecond, byte[] text) {
    }

    private final Clock clock;
    private volatile Second latest = new Second(Long.MIN_VALUE, new byte[0]);

    CreationTimes(Clock clock) {
        this.clock = clock;
    }

    byte[] now() {
        long second = Math.floorDiv(clock.millis(), 1000);
        Second kept = latest;
        if (kept.epochSecond() != second) {
            kept = new Second(second, Instant.ofEpochSecond(second).toString().getBytes(StandardCharsets.US_ASCII));
            latest = kept;
        }
        return kept.text();
    }
}
