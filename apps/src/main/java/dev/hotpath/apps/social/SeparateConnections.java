package dev.hotpath.apps.social;

import dev.hotpath.http.Deferred;
import dev.hotpath.store.GroupCommitConfig;
import dev.hotpath.store.GroupCommitWriter;
import dev.hotpath.store.SqliteDatabase;
import dev.hotpath.store.Write;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Reads on the event loop that received them, each loop with its own read-only connection and
 * prepared statements; writes through the {@link GroupCommitWriter} on its own thread and connection.
 * For several event loops, or {@code synchronous=FULL} (whose fsync must not stall a loop). Each commit
 * of the writer makes every read connection drop its page cache, which {@link LoopConnection} avoids
 * where it can be used.
 */
final class SeparateConnections implements SocialDatabase {
    private static final int QUEUE = 4096;
    private static final int MAX_BATCH = 256;
    /**
     * The shortest time between two commits of the writer. Commits cost no fsync under
     * {@code synchronous=NORMAL}, but each makes every read connection drop its page cache: in the
     * closed-loop mix the writer made ~2,100 commits a second of 1.3 writes each. A 1 ms linger after
     * each batch's first write measured 1.045× less server CPU per request than none, and at most one
     * commit per 4 ms 1.037× less again (docs/BENCHMARKS.md); unlike a linger, a write that finds the
     * writer idle longer than this commits at once, so light load waits for nothing.
     */
    private static final Duration COMMIT_INTERVAL = Duration.ofMillis(4);

    private final GroupCommitWriter writer;
    /** Each reading thread's reads and their connection, closed in that order. */
    private final List<AutoCloseable> readers = new CopyOnWriteArrayList<>();
    private final ThreadLocal<PostReads> reads;

    SeparateConnections(Path database, Connection writeConnection) {
        this.writer = new GroupCommitWriter(writeConnection, GroupCommitConfig.named("social-writer")
            .withQueueCapacity(QUEUE).withMaxBatch(MAX_BATCH).withCommitInterval(COMMIT_INTERVAL)
            .withAcknowledgements(Deferred::completeTogether));
        this.reads = ThreadLocal.withInitial(() -> {
            try {
                Connection c = SqliteDatabase.openForReading(database);
                PostReads postReads;
                try {
                    postReads = new PostReads(c);
                } catch (SQLException | RuntimeException e) {
                    SqliteDatabase.closeAfter(e, c);
                    throw e;
                }
                readers.add(postReads);
                readers.add(c);
                return postReads;
            } catch (SQLException e) {
                throw new IllegalStateException("cannot open a read connection on " + database, e);
            }
        });
    }

    @Override
    public PostReads reads() {
        return reads.get();
    }

    @Override
    public boolean offer(Write write) {
        return writer.offer(write);
    }

    /**
     * Commits what is queued, then closes the writer and every read connection, each after its
     * statements (SQLite does not close a connection whose statements are still prepared).
     */
    @Override
    public void close() {
        writer.close();
        for (AutoCloseable reader : readers) {
            try {
                reader.close();
            } catch (Exception e) {
                System.getLogger(SeparateConnections.class.getName()).log(System.Logger.Level.WARNING,
                    "closing a read connection or its statements failed", e);
            }
        }
    }
}
