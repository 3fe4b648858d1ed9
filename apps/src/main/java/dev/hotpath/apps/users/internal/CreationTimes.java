package dev.hotpath.apps.users.internal;

import java.time.Clock;
import java.time.Instant;

/**
 * A new user's {@code created_at}: the clock's time in whole UTC seconds as ISO-8601 text
 * ({@code 2026-12-07T08:00:00Z}). The text of the latest second is kept, so the creates of one second
 * share one string instead of each making an {@link Instant}, its truncation and its text. Safe from
 * any thread: the kept second is one immutable pair behind a volatile field.
 */
final class CreationTimes {
    private record Second(long epochSecond, String text) {
    }

    private final Clock clock;
    private volatile Second latest = new Second(Long.MIN_VALUE, "");

    CreationTimes(Clock clock) {
        this.clock = clock;
    }

    String now() {
        long second = Math.floorDiv(clock.millis(), 1000);
        Second kept = latest;
        if (kept.epochSecond() != second) {
            kept = new Second(second, Instant.ofEpochSecond(second).toString());
            latest = kept;
        }
        return kept.text();
    }
}
