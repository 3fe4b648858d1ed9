package dev.hotpath.apps.shortener.internal;

import dev.hotpath.http.Response;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where the scale-out mode's blocking JDBC runs, so that no event loop ever waits on PostgreSQL: as
 * many threads as the read pool has connections, and a bounded queue in front of them. When the queue
 * is full a look-up is refused at once (the request answers 503 {@code overloaded} with
 * {@code Retry-After}) instead of waiting in an unbounded backlog.
 */
final class LookupExecutor implements AutoCloseable {
    static final Response OVERLOADED = Errors.retryLater("overloaded", "too many look-ups are waiting; retry shortly");
    static final Response STORE_UNAVAILABLE = Errors.retryLater("store_unavailable",
        "the link store cannot be reached; retry shortly");

    private final ThreadPoolExecutor threads;
    private final long maxWaitNanos;
    private volatile boolean closed;
    private final AtomicLong storeErrors = new AtomicLong();

    /** A blocking call against PostgreSQL. */
    @FunctionalInterface
    interface SqlCall<T> {
        T call() throws SQLException;
    }

    /**
     * @param maxWait a look-up that waited longer for a thread fails without running: its client has
     *     waited as long as the store may take, and PostgreSQL is likely down or hung (the store timeout)
     */
    LookupExecutor(int threadCount, int queueCapacity, Duration maxWait) {
        this.maxWaitNanos = maxWait.toNanos();
        this.threads = new ThreadPoolExecutor(threadCount, threadCount, 0, TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(queueCapacity),
            Thread.ofPlatform().name("shortener-lookup-", 0).daemon(true).factory(),
            new ThreadPoolExecutor.AbortPolicy());
    }

    /**
     * Runs {@code call} on a look-up thread. The future fails with {@link RejectedExecutionException}
     * when the queue is full, or with the call's {@link SQLException}; {@link #answerTo} turns either
     * into the response.
     */
    <T> CompletableFuture<T> run(SqlCall<T> call) {
        CompletableFuture<T> result = new CompletableFuture<>();
        long queuedAt = System.nanoTime();
        try {
            threads.execute(() -> {
                if (closed || System.nanoTime() - queuedAt > maxWaitNanos) {
                    storeErrors.incrementAndGet();
                    result.completeExceptionally(new SQLException(closed ? "the node is closing"
                        : "waited longer than the store timeout for a thread"));
                    return;
                }
                try {
                    result.complete(call.call());
                } catch (Throwable e) { // whatever it is, the request it answers must be answered
                    storeErrors.incrementAndGet();
                    result.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(e);
        }
        return result;
    }

    /** The 503 for a failed look-up: {@code overloaded} when it was refused, else {@code store_unavailable}. */
    static Response answerTo(Throwable failure) {
        Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
        return cause instanceof RejectedExecutionException ? OVERLOADED : STORE_UNAVAILABLE;
    }

    /** Look-ups that failed in PostgreSQL since start. */
    long storeErrors() {
        return storeErrors.get();
    }

    /** Look-ups waiting for a thread now. */
    int queued() {
        return threads.getQueue().size();
    }

    /** Stops the threads; look-ups still queued fail (their requests answer 503). */
    @Override
    public void close() {
        closed = true;
        for (Runnable queued : threads.shutdownNow()) {
            queued.run(); // fails at once: closed
        }
    }
}
