package dev.hotpath.apps.social;

import dev.hotpath.http.EventLoops;
import dev.hotpath.store.BackgroundCheckpoints;
import dev.hotpath.store.LoopCommitter;
import dev.hotpath.store.Write;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One connection for a server with one event loop: reads on it as they arrive, writes committed on it
 * together at the end of the loop's turn ({@link LoopCommitter}), each answered after that commit. No
 * other connection writes, so SQLite keeps the page cache across commits, and no writer thread
 * competes with the loop for the core. Used only under {@code synchronous=NORMAL}, where a commit costs
 * no fsync; the checkpoints, which do, run on a thread of their own ({@link BackgroundCheckpoints}).
 * Every call must come from that one loop: another thread is refused rather than allowed to share the
 * connection.
 */
final class LoopConnection implements SocialDatabase {
    /** Writes one turn may hold, as many as the writer thread's queue would. */
    private static final int TURN_CAPACITY = 4096;

    private final LoopCommitter committer;
    private final BackgroundCheckpoints checkpoints;
    private final PostReads reads;
    private final AtomicReference<Thread> loop = new AtomicReference<>();

    /** @param checkpoints the WAL's checkpoints, taken off {@code connection} so the loop never waits on them */
    LoopConnection(Connection connection, BackgroundCheckpoints checkpoints) throws SQLException {
        this.reads = new PostReads(connection);
        this.committer = new LoopCommitter(connection, TURN_CAPACITY, checkpoints);
        this.checkpoints = checkpoints;
    }

    @Override
    public PostReads reads() {
        onTheLoop();
        return reads;
    }

    @Override
    public boolean offer(Write write) {
        onTheLoop();
        return committer.offer(write, EventLoops.current());
    }

    /**
     * The first caller's thread is the loop; any other is a misconfigured server. Claimed by
     * compare-and-set, so two threads racing for the first call cannot both pass.
     */
    private void onTheLoop() {
        Thread current = Thread.currentThread();
        Thread owner = loop.get();
        if (owner != current && (owner != null || !loop.compareAndSet(null, current))) {
            throw new IllegalStateException("one connection serves one event loop; called from " + current.getName());
        }
    }

    @Override
    public void close() {
        try {
            reads.close();
        } catch (SQLException e) {
            System.getLogger(LoopConnection.class.getName()).log(System.Logger.Level.WARNING,
                "closing the reads' statements failed; the connection may stay open", e);
        }
        committer.close();
        checkpoints.close();
    }
}
