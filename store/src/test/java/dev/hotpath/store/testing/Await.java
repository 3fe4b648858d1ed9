package dev.hotpath.store.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Waiting in a test for what another thread or process does: the condition decides, and the deadline
 * (a minute, far above any wait of a passing run) only turns a hang into a failure that names what was
 * awaited. Every module's tests wait through this one loop.
 */
public final class Await {
    private static final Duration DEADLINE = Duration.ofMinutes(1);
    private static final long PACE_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private Await() {
    }

    /** A condition that may throw, as a read of a database or a request to a server can. */
    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    /** Returns once {@code condition} holds; fails the test, naming {@code what}, after the deadline. */
    public static void until(String what, Condition condition) {
        long end = System.nanoTime() + DEADLINE.toNanos();
        while (!check(what, condition)) {
            assertThat(System.nanoTime() - end).as("still waiting for " + what).isNegative();
            LockSupport.parkNanos(PACE_NANOS); // polling pace, not synchronization
        }
    }

    private static boolean check(String what, Condition condition) {
        try {
            return condition.holds();
        } catch (Exception e) {
            throw new AssertionError("checking " + what + " failed", e);
        }
    }
}
