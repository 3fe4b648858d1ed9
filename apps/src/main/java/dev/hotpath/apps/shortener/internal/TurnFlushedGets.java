package dev.hotpath.apps.shortener.internal;

import dev.hotpath.http.EventLoops;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * The {@code GET}s of a node's cache misses, on a Redis connection of their own whose commands Lettuce
 * buffers until they are flushed ({@code RedisConnections.openBuffered()}): every miss of one
 * event-loop turn goes to Redis in one write, by a flush the loop runs once at the end of that turn
 * (a task it is given from its own thread). A miss asked for outside any event loop is flushed at once.
 *
 * <p>Why: sent one by one, each {@code GET} was a hand-off to Lettuce's I/O thread and a write system
 * call of its own, where profiles put most of what a Redis hit cost beyond a local one. Batched, a
 * turn's misses cost one hand-off and one write: 0.56 times the server CPU per Redis hit in an A/B
 * (docs/BENCHMARKS.md). Cost: a thread-local read per miss; a miss waits for the rest of its turn
 * before it is sent (about a millisecond at most: see {@code EventLoops}).
 *
 * <p>Several loops may share the connection: a flush sends what every loop buffered, which only sends
 * another loop's commands earlier than its own flush would.
 */
final class TurnFlushedGets implements AutoCloseable {
    private final StatefulRedisConnection<String, String> connection;
    private final RedisAsyncCommands<String, String> commands;
    private final ThreadLocal<TurnFlush> flushes = ThreadLocal.withInitial(TurnFlush::new);

    /** @param connection one with automatic flushing turned off, now owned by this */
    TurnFlushedGets(StatefulRedisConnection<String, String> connection) {
        this.connection = connection;
        this.commands = connection.async();
    }

    /** {@code GET key}, sent at the end of the caller's loop turn (at once off a loop). */
    RedisFuture<String> get(String key) {
        RedisFuture<String> reply = commands.get(key);
        Executor loop = EventLoops.currentOrNull();
        if (loop == null) {
            connection.flushCommands();
        } else {
            flushes.get().queueOn(loop);
        }
        return reply;
    }

    @Override
    public void close() {
        connection.close();
    }

    /** One loop's flush: queued at most once per turn. Used by its own thread only. */
    private final class TurnFlush implements Runnable {
        private boolean queued;

        void queueOn(Executor loop) {
            if (queued) {
                return;
            }
            try {
                loop.execute(this); // from the loop's own thread: runs later in this turn, never in this call
                queued = true;
            } catch (RejectedExecutionException shuttingDown) {
                connection.flushCommands();
            }
        }

        @Override
        public void run() {
            queued = false;
            connection.flushCommands();
        }
    }
}
