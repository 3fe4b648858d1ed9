package dev.hotpath.apps.shortener.internal;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether the scale-out shortener asks Redis at all. One failed command (an error, or no answer within
 * {@code --cache-timeout}) opens it: from then on every request skips Redis and goes to PostgreSQL, so
 * a hung Redis costs one timeout, not one per request. Only a probe that Redis answered closes it
 * again ({@link RedisLinks} sends one every few hundred milliseconds while it is open).
 */
final class RedisBreaker {
    private final AtomicBoolean open = new AtomicBoolean();
    private final AtomicLong openings = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();

    /** Whether requests may ask Redis now. */
    boolean closed() {
        return !open.get();
    }

    /** A command failed: skip Redis until a probe succeeds. */
    void failed() {
        errors.incrementAndGet();
        if (open.compareAndSet(false, true)) {
            openings.incrementAndGet();
        }
    }

    /** A probe was answered: ask Redis again. */
    void probeSucceeded() {
        open.set(false);
    }

    /** Commands that failed since start. */
    long errors() {
        return errors.get();
    }

    /** Times it opened since start. */
    long openings() {
        return openings.get();
    }
}
