package dev.hotpath.apps.messages.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.apps.internal.FutureAnswer;
import dev.hotpath.http.Response;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Reads off the loop: answered from a read thread, and overloaded at once when the queue is full. */
class ReadThreadsTest {
    private static final Response DONE = Response.json(200, "{}");
    private static final Response OVERLOADED = Response.json(503, "{}");

    @Test
    @Timeout(30)
    void aReadBeyondTheQueueIsOverloadedAtOnceAndTheQueuedOnesAreAnswered() throws Exception {
        AtomicInteger refused = new AtomicInteger();
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (ReadThreads reads = new ReadThreads(1, 1, () -> {
            refused.incrementAndGet();
            return OVERLOADED;
        })) {
            FutureAnswer busy = new FutureAnswer();
            reads.answer(() -> {
                running.countDown();
                await(release);
                return DONE;
            }, busy);
            assertThat(running.await(10, TimeUnit.SECONDS)).as("the one thread took the first read").isTrue();
            FutureAnswer queued = new FutureAnswer();
            reads.answer(() -> DONE, queued);
            FutureAnswer beyond = new FutureAnswer();
            reads.answer(() -> DONE, beyond);

            assertThat(beyond.future().getNow(null)).as("answered before any read finished").isSameAs(OVERLOADED);
            assertThat(refused).hasValue(1);
            assertThat(busy.future()).isNotDone();
            assertThat(queued.future()).isNotDone();
            release.countDown();
            assertThat(busy.future().get(10, TimeUnit.SECONDS)).isSameAs(DONE);
            assertThat(queued.future().get(10, TimeUnit.SECONDS)).isSameAs(DONE);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
