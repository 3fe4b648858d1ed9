package dev.hotpath.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.store.testing.Await;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A rest ends at the wake-up that follows it, also one that comes while the worker is still asking
 * whether there is work, and is skipped when work came before it began. A regression parks for ever:
 * each test's timeout turns that into a failure.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class RestTest {
    private static final long FOR_EVER = Long.MAX_VALUE;

    private final Rest rest = new Rest();

    @Test
    void aWakeUpEndsARestThatWouldOtherwiseLastForEver() throws Exception {
        CountDownLatch rested = new CountDownLatch(1);
        Thread.ofPlatform().daemon(true).start(() -> {
            rest.rest(FOR_EVER, () -> true);
            rested.countDown();
        });
        Await.until("the worker resting", rest::resting);

        rest.wake();

        Await.until("the rest ended", () -> rested.getCount() == 0);
        assertThat(rest.resting()).isFalse();
    }

    /** The worker is named as resting before it asks: a hand-over during the question is not lost. */
    @Test
    void aWakeUpWhileTheWorkerAsksForWorkEndsTheRestItThenBegins() {
        AtomicBoolean namedFirst = new AtomicBoolean();

        rest.rest(FOR_EVER, () -> {
            namedFirst.set(rest.resting());
            rest.wake(); // work handed over just after the question was asked
            return true;
        });

        assertThat(namedFirst).isTrue();
        assertThat(rest.resting()).isFalse();
    }

    @Test
    void workHandedOverBeforeTheRestBeganSkipsIt() {
        AtomicBoolean work = new AtomicBoolean(true);

        rest.rest(FOR_EVER, () -> !work.get());

        assertThat(rest.resting()).isFalse();
    }
}
