package dev.hotpath.loadgen;

import java.time.Duration;

/**
 * How virtual users come and go in {@link Mode#USERS}: user i of N starts {@code rampUp × i / N} after
 * the shared start, sends one request at a time on its own keep-alive connection, thinks a uniformly
 * random time in [{@code thinkMin}, {@code thinkMax}] after each answer, and stops
 * {@code rampDown × i / N} after the hold ends. The run's duration is the hold.
 */
public record UsersModel(Duration rampUp, Duration rampDown, Duration thinkMin, Duration thinkMax) {
    public UsersModel {
        if (rampUp.isNegative() || rampDown.isNegative()) {
            throw new IllegalArgumentException("--ramp-up and --ramp-down must not be negative");
        }
        if (thinkMin.isNegative() || thinkMax.compareTo(thinkMin) < 0) {
            throw new IllegalArgumentException("--think must be MIN..MAX with 0 <= MIN <= MAX");
        }
    }

    /** When user {@code index} of {@code users} sends its first request, after the start. */
    public long startOffsetNanos(int index, int users) {
        return (long) ((double) rampUp.toNanos() * index / users);
    }

    /** When user {@code index} stops, after the end of the hold. */
    public long stopOffsetNanos(int index, int users) {
        return (long) ((double) rampDown.toNanos() * index / users);
    }
}
