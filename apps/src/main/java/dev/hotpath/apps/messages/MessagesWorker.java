package dev.hotpath.apps.messages;

import dev.hotpath.apps.messages.internal.MessageStore;
import dev.hotpath.apps.messages.internal.StreamMetrics;
import dev.hotpath.apps.messages.internal.StreamWorker;
import dev.hotpath.store.GroupCommitConfig;
import dev.hotpath.store.GroupCommitWriter;
import dev.hotpath.store.RedisConnections;
import java.sql.SQLException;

/**
 * The stream worker alone ({@code hotpath messages worker}): stores the stream's entries through a
 * group-commit writer of its own, into the data directory's {@code messages.db} beside a
 * {@code hotpath serve messages --worker off} on the same directory, or into the PostgreSQL database
 * the servers use.
 *
 * <p>It takes no {@link dev.hotpath.store.DataDirLock}: the lock stays the serving process's (one
 * server per directory), and the worker is one more SQLite writer, which WAL and the busy timeout
 * serialise with the server's writer. Nothing of the worker lives in memory but its batch in hand,
 * so two of them on one directory (or database) would be two consumers of the group, not a conflict.
 */
public final class MessagesWorker implements AutoCloseable {
    private final RedisConnections redis;
    private final MessageStore store;
    private final GroupCommitWriter writer;
    private final StreamMetrics metrics = new StreamMetrics();
    private final StreamWorker worker;

    private MessagesWorker(RedisConnections redis, MessageStore store, GroupCommitWriter writer, StreamConfig stream) {
        this.redis = redis;
        this.store = store;
        this.writer = writer;
        this.worker = new StreamWorker(redis.openPubSub(), writer, store, metrics, stream.settings());
    }

    /**
     * Opens the store (its schema created or migrated), connects to Redis and starts the worker.
     *
     * @throws IllegalStateException when the store cannot be opened or Redis does not answer
     */
    public static MessagesWorker open(MessagesConfig config) {
        if (config.stream() == null) {
            throw new IllegalArgumentException("the worker needs a stream");
        }
        RedisConnections redis = MessagesApp.connect(config.stream());
        MessageStore store = null;
        GroupCommitWriter writer = null;
        try {
            store = MessagesApp.openStore(config);
            writer = store.openWriter(GroupCommitConfig.named("messages-stream-writer").withMaxBatch(config.maxBatch()));
            return new MessagesWorker(redis, store, writer, config.stream());
        } catch (SQLException | RuntimeException e) {
            if (writer != null) {
                writer.close();
            }
            if (store != null) {
                store.close();
            }
            redis.close();
            throw new IllegalStateException("cannot open " + MessagesApp.where(config) + ": " + e.getMessage(), e);
        }
    }

    /** The worker's counters: stored, dead letters, and the stream as last measured. */
    public StreamMetrics metrics() {
        return metrics;
    }

    /** The worker's consumer name in the group. */
    public String consumer() {
        return worker.consumer();
    }

    /** Stops the worker, commits what is queued, closes the store and Redis. */
    @Override
    public void close() {
        worker.close();
        writer.close();
        store.close();
        redis.close();
    }
}
