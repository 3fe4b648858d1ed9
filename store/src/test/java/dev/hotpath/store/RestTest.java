package dev.hotpath.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** A rest ends at the wake-up that follows it, and is skipped when work came before it began. */
class RestTest {
    private static final long SAFETY_SECONDS = 60;
    private static final long FOR_EVER = Long.MAX_VALUE;

    private final Rest rest = new Rest();

    @Test
    void aWakeUpEndsARestThatWouldOtherwiseLastForEver() throws Exception {
        CountDownLatch rested = new CountDownLatch(1);
        Thread worker = Thread.ofPlatform().start(() -> {
            rest.rest(FOR_EVER, () -> true);
            rested.countDown();
        });
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(SAFETY_SECONDS);
        while (!rest.resting()) {
            assertThat(System.nanoTime() - end).as("still waiting for the worker to rest").isNegative();
            Thread.onSpinWait();
        }
        rest.wake(worker);

        assertThat(rested.await(SAFETY_SECONDS, TimeUnit.SECONDS)).as("the rest ended").isTrue();
        assertThat(rest.resting()).isFalse();
    }

    @Test
    void workHandedOverBeforeTheRestBeganSkipsIt() {
        AtomicBoolean work = new AtomicBoolean(true);

        rest.rest(FOR_EVER, () -> !work.get()); // returns: the test would hang here otherwise

        assertThat(rest.resting()).isFalse();
    }
}
