package dev.hotpath.http;

import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.Executor;

/**
 * The event loop a handler runs on, for work that must stay on that thread but run a little later.
 * A task given to it from its own thread runs in the same turn of the loop, after the loop has handled
 * everything it read in that turn and before it waits for more: the place to commit, once, the writes
 * that the turn's requests made on a connection only this loop uses. Giving it a task from the loop
 * costs a queue insertion, no wake-up.
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

    /** Makes {@code loop} its own thread's answer to {@link #current()}, before it runs anything else it is given. */
    static void register(EventExecutor loop) {
        loop.execute(() -> CURRENT.set(loop));
    }
}
