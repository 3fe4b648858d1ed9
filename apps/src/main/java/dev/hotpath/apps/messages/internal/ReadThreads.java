package dev.hotpath.apps.messages.internal;

import dev.hotpath.http.Deferred;
import dev.hotpath.http.Response;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Runs reads that wait on the network (PostgreSQL) off the event loops: a fixed number of platform
 * threads, one per pooled connection, and a bounded queue. A read that finds the queue full is answered
 * at once with {@code 503 overloaded} and {@code Retry-After: 1}, like a full writer queue: waiting work
 * is bounded twice, here and by the engine's in-flight limit on deferred answers.
 *
 * <p>Cost: the threads, a queue slot per waiting read, and two thread hops per read (to a read thread,
 * and the answer back to the loop), some microseconds against a round trip to the database.
 */
final class ReadThreads implements AutoCloseable {
    /**
     * Reads waiting for a thread. At a few hundred microseconds a read on 4 threads, 1,024 waiting is
     * some tens of milliseconds of work: past that a client is better told to come back.
     */
    static final int QUEUE_CAPACITY = 1024;

    private final ThreadPoolExecutor executor;
    private final Supplier<Response> overloaded;

    /** @param overloaded the answer when the queue is full; called once per refused read (to count it) */
    ReadThreads(int threads, int queueCapacity, Supplier<Response> overloaded) {
        AtomicInteger count = new AtomicInteger();
        this.executor = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS,
            new ArrayBlockingQueue<>(queueCapacity),
            task -> Thread.ofPlatform().name("messages-reads-" + count.incrementAndGet()).daemon(true).unstarted(task),
            new ThreadPoolExecutor.AbortPolicy());
        this.overloaded = overloaded;
    }

    /** Answers {@code response} with {@code read}'s result, computed on a read thread; or overloaded now. */
    void answer(Supplier<Response> read, Deferred response) {
        try {
            executor.execute(() -> response.complete(read.get()));
        } catch (RejectedExecutionException e) {
            response.complete(overloaded.get());
        }
    }

    /** Finishes the reads queued, then stops the threads. */
    @Override
    public void close() {
        executor.close();
    }
}
