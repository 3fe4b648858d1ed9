package dev.hotpath.store.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;

/**
 * Waiting in a test for what another thread or process does: the condition decides, and the deadline
 * (a minute, far above any wait of a passing run) only turns a hang into a failure that names what was
 * awaited. An interrupt (a test's own timeout) ends the wait at once, as a failure.
 */
public final class Await {
    private static final Duration DEADLINE = Duration.ofMinutes(1);
    private static final long PACE_MILLIS = 10;

    private Await() {
    }

    /** A condition that may throw, as a read of a database or a request to a server can. */
    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    /** Returns once {@code condition} holds; fails the test, naming {@code what}, after the deadline. */
    public static void until(String what, Condition condition) {
        until(what, condition, () -> "");
    }

    /**
     * As {@link #until(String, Condition)}, and a failure also gives {@code detail}, read only then: what
     * explains a wait that never ended (the log of the process waited for, say).
     */
    public static void until(String what, Condition condition, Callable<String> detail) {
        poll(what, () -> check(what, condition, false), () -> true, detail);
    }

    /**
     * Polls {@code condition} until it holds (true) or {@code process} has ended (false): how a throwaway
     * server's start is awaited, where a refused connection or a file not yet written only means "not
     * yet" (so a throw counts as false) and an exit means the start failed, which its caller may retry
     * on another port. A wait past the deadline fails with {@code detail} (the server's log).
     */
    public static boolean untilOrExit(String what, Process process, Condition condition, Callable<String> detail) {
        return poll(what, () -> check(what, condition, true), process::isAlive, detail);
    }

    /** True once {@code holds}; false as soon as {@code goOn} says stop; fails after the deadline. */
    private static boolean poll(String what, BooleanSupplier holds, BooleanSupplier goOn, Callable<String> detail) {
        long end = System.nanoTime() + DEADLINE.toNanos();
        while (!holds.getAsBoolean()) {
            if (!goOn.getAsBoolean()) {
                return false;
            }
            assertThat(System.nanoTime() - end).as(() -> "still waiting for " + what + describe(detail)).isNegative();
            try {
                Thread.sleep(PACE_MILLIS); // polling pace, not synchronization
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, e);
            }
        }
        return true;
    }

    private static String describe(Callable<String> detail) {
        try {
            String text = detail.call();
            return text.isEmpty() ? "" : ":\n" + text;
        } catch (Exception e) {
            return " (and its detail could not be read: " + e + ")";
        }
    }

    /** Whether {@code condition} holds; a throw fails the wait, or counts as false when {@code throwIsNotYet}. */
    private static boolean check(String what, Condition condition, boolean throwIsNotYet) {
        try {
            return condition.holds();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while checking " + what, e);
        } catch (Exception e) {
            if (throwIsNotYet) {
                return false;
            }
            throw new AssertionError("checking " + what + " failed", e);
        }
    }
}
