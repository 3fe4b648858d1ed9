package dev.hotpath.http;

import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.Executor;

/**
 * The event loop a handler runs on, for work that must stay on that thread but run a little later.
 * A task given to it from its own thread runs after the request that gave it, at the end of the
 * loop's turn (once the loop has handled what it read) or, while the loop stays busy, between two of
 * its reads once the task has waited into another millisecond: the place to commit, once, the writes
 * that several requests made on a connection only this loop uses, without a write waiting for the
 * whole of a long turn. Giving it a task from the loop costs a queue insertion, no wake-up; from
 * another thread, the task goes to the loop's own queue.
 */
public final class EventLoops {
    private static final ThreadLocal<Executor> CURRENT = new ThreadLocal<>();

    private EventLoops() {
    }

    /**
     * The calling thread's event loop.
     *
     * @throws IllegalStateException when the caller does not run on one of the engine's event loops
     */
    public static Executor current() {
        Executor loop = currentOrNull();
        if (loop == null) {
            throw new IllegalStateException("not on an event loop: " + Thread.currentThread().getName());
        }
        return loop;
    }

    /** The calling thread's event loop, or null when the caller does not run on one. */
    public static Executor currentOrNull() {
        return CURRENT.get();
    }

    /** Makes {@code turn} the answer of {@code loop}'s thread to {@link #current()}, before it runs anything else it is given. */
    static void register(EventExecutor loop, Executor turn) {
        loop.execute(() -> CURRENT.set(turn));
    }
}
