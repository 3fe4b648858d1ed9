package dev.hotpath.apps.messages;

import dev.hotpath.apps.messages.internal.StreamMetrics;
import dev.hotpath.apps.messages.internal.StreamWorker;
import dev.hotpath.store.GroupCommitConfig;
import dev.hotpath.store.GroupCommitWriter;
import dev.hotpath.store.RedisConnections;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The stream worker alone ({@code hotpath messages worker}): stores the stream's entries into the data
 * directory's {@code messages.db} through a group-commit writer of its own, beside a
 * {@code hotpath serve messages --worker off} on the same directory.
 *
 * <p>It takes no {@link dev.hotpath.store.DataDirLock}: the lock stays the serving process's (one
 * server per directory), and the worker is one more SQLite writer, which WAL and the busy timeout
 * serialise with the server's writer. Nothing of the worker lives in memory but its batch in hand,
 * so two of them on one directory would be two consumers of the group, not a conflict.
 */
public final class MessagesWorker implements AutoCloseable {
    private final RedisConnections redis;
    private final GroupCommitWriter writer;
    private final StreamMetrics metrics = new StreamMetrics();
    private final StreamWorker worker;

    private MessagesWorker(RedisConnections redis, GroupCommitWriter writer, StreamConfig stream) {
        this.redis = redis;
        this.writer = writer;
        this.worker = new StreamWorker(redis.openPubSub(), writer, metrics, stream.settings());
    }

    /**
     * Opens the database (its schema created if missing), connects to Redis and starts the worker.
     *
     * @throws IllegalStateException when the database cannot be opened or Redis does not answer
     */
    public static MessagesWorker open(MessagesConfig config) {
        if (config.stream() == null) {
            throw new IllegalArgumentException("the worker needs a stream");
        }
        Path database = config.dataDir().resolve(dev.hotpath.apps.messages.internal.MessagesSchema.FILE);
        RedisConnections redis = MessagesApp.connect(config.stream());
        GroupCommitWriter writer = null;
        try {
            java.nio.file.Files.createDirectories(config.dataDir());
            Connection db = MessagesApp.openDatabase(database, config.durability());
            writer = new GroupCommitWriter(db, GroupCommitConfig.named("messages-stream-writer")
                .withMaxBatch(config.maxBatch()));
            return new MessagesWorker(redis, writer, config.stream());
        } catch (SQLException | java.io.IOException | RuntimeException e) {
            if (writer != null) {
                writer.close();
            }
            redis.close();
            throw new IllegalStateException("cannot open " + database + ": " + e.getMessage(), e);
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

    /** Stops the worker, commits what is queued, closes the database and Redis. */
    @Override
    public void close() {
        worker.close();
        writer.close();
        redis.close();
    }
}
