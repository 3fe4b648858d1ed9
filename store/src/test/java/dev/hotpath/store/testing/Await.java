package dev.hotpath.store.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.Callable;

/** Waiting in a test for what another thread does: the condition decides, a deadline only fails it. */
public final class Await {
    private static final Duration DEADLINE = Duration.ofMinutes(1);

    private Await() {
    }

    /** Returns once {@code condition} holds; fails the test, naming {@code what}, after a minute. */
    public static void until(String what, Callable<Boolean> condition) throws Exception {
        long end = System.nanoTime() + DEADLINE.toNanos();
        while (!condition.call()) {
            assertThat(System.nanoTime() - end).as("still waiting for " + what).isNegative();
            Thread.sleep(1); // polling pace, not synchronization
        }
    }
}
