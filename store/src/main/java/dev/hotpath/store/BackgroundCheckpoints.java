package dev.hotpath.store;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * SQLite's WAL checkpoints on a thread of their own, for a connection whose thread must not wait on
 * the disk: a {@link LoopCommitter}'s, which commits on an event loop, or a {@link GroupCommitWriter}'s
 * ({@link GroupCommitConfig#afterCommit()}), whose waiting holds up every write queued behind it.
 * SQLite checkpoints on the connection that commits, after the commit that takes the WAL past 1,000
 * pages, and a checkpoint fsyncs the WAL and then the database file; on the loop, every request of
 * every connection waits for those. In the social API at the challenge's load (19,000 connections, write-heavy mix) the loop was
 * blocked on the disk 13% of the time and fell behind its users with part of its core idle
 * (docs/BENCHMARKS.md).
 *
 * <p>So the committing connection's automatic checkpoints are turned off, and a thread runs a
 * {@code PASSIVE} checkpoint on a connection of its own every {@code interval}: it copies what it can
 * without waiting for the writer or the readers, which go on meanwhile; after an interval without a
 * commit it has nothing to copy and syncs nothing. Durability is unchanged: a commit is as durable in
 * the WAL as its {@code synchronous} level makes it, and this connection has the same level, so it
 * syncs the WAL before copying from it and the database file before the WAL may be reused.
 *
 * <p>Rewinding the WAL: SQLite writes the WAL from its start again only when a write transaction
 * begins with every frame already copied. Under steady load the committer commits while each
 * background checkpoint copies, so that moment seldom comes and the WAL grows nearly without end (1 GB
 * in 25 minutes of the social score search, every read searching a larger WAL index). So once a
 * checkpoint finds the WAL past {@code rewindFrames}, the committing connection's next
 * {@link #afterCommit()} runs one checkpoint itself: the background has copied nearly everything, so
 * it copies the last commits' pages and syncs, and the write after it starts the WAL over. A
 * checkpoint that found another running (a second process on the file) copied nothing, and is tried
 * again after the next commit.
 *
 * <p>A committer that must not wait on the disk at all (an event loop, whose every connection waits
 * with it) rewinds with {@link #rewind} instead: it holds its writes and ends its transaction, this
 * thread copies and syncs the whole WAL (nothing appends to it meanwhile), and hands back; the
 * committer's next write then starts the WAL over, which costs it only the sync of the WAL's new
 * header. Its reads go on throughout; only its writes wait, for one checkpoint. Under wrk's social mix
 * the loop's own rewind checkpoints were what set the p99 (docs/BENCHMARKS.md).
 *
 * <p>Cost: a thread, a connection; the WAL holds up to about {@code rewindFrames} pages plus an
 * interval's commits; and each time that much has been written, the committer waits for one small
 * checkpoint (its fsyncs) with {@link #afterCommit()}, or holds its writes for one with
 * {@link #rewind}. When the server is pinned to one core the copying still takes CPU from it; only
 * the waiting moves off the committing thread.
 */
public final class BackgroundCheckpoints implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(BackgroundCheckpoints.class.getName());
    /** One block of SQLite's WAL index (16 MiB of 4 KiB pages): a read searches at most two. */
    static final int REWIND_FRAMES = 4_096;
    /**
     * Checkpoints a {@link #rewind} tries before handing back without the whole WAL copied (a reader of
     * another connection holding an old snapshot): the committer then tries again after its next commit.
     */
    private static final int REWIND_ATTEMPTS = 20;
    private static final long REWIND_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private final Connection committing;
    private final Connection db;
    private final long intervalNanos;
    private final int rewindFrames;
    private final Thread thread;
    private volatile boolean closing;
    private volatile boolean rewindWanted;
    /** The committer's rewind this thread owes a hand-back: set by {@link #rewind}, cleared here. */
    private volatile HandBack handBack;
    private boolean failing;

    /** Where and what to run once a {@link #rewind} is done. */
    private record HandBack(Executor committer, Runnable done) {
    }

    private BackgroundCheckpoints(Connection committing, Connection db, Duration interval, int rewindFrames) {
        this.committing = committing;
        this.db = db;
        this.intervalNanos = interval.toNanos();
        this.rewindFrames = rewindFrames;
        this.thread = Thread.ofPlatform().name("sqlite-checkpoints").daemon(true).start(this::run);
    }

    /**
     * Turns off the automatic checkpoints of {@code committing} (call it on the thread that owns that
     * connection, before handing it on) and starts checkpointing {@code file} every {@code interval}.
     */
    public static BackgroundCheckpoints takeOver(Connection committing, Path file, Durability durability,
                                                 Duration interval) throws SQLException {
        return takeOver(committing, file, durability, interval, REWIND_FRAMES);
    }

    /**
     * {@link #takeOver} with the WAL's size, in frames, past which the committing connection rewinds it,
     * for a writer whose checkpoints should gather more (or fewer) commits than {@value #REWIND_FRAMES}.
     */
    public static BackgroundCheckpoints takeOver(Connection committing, Path file, Durability durability, Duration interval,
                                                 int rewindFrames) throws SQLException {
        if (!durability.persistent()) {
            throw new IllegalArgumentException("an in-memory database has no WAL to checkpoint");
        }
        try (Statement s = committing.createStatement()) {
            s.execute("PRAGMA wal_autocheckpoint=0");
        }
        Connection db = SqliteDatabase.openForWriting(file, durability);
        try {
            db.setAutoCommit(true); // a checkpoint cannot run inside the transaction manual commit keeps open
            return new BackgroundCheckpoints(committing, db, interval, rewindFrames);
        } catch (SQLException | RuntimeException e) {
            SqliteDatabase.closeAfter(e, db);
            throw e;
        }
    }

    /**
     * One checkpoint, now, on the caller's thread: what the WAL held and how much of it is in the file.
     * A WAL past the rewind bound asks the committing connection to finish the job ({@link #afterCommit()}).
     */
    synchronized Progress checkpointNow() throws SQLException {
        Progress progress = passiveCheckpoint(db);
        if (progress.walFrames() >= rewindFrames) {
            rewindWanted = true;
        }
        return progress;
    }

    /**
     * Whether the WAL has grown past the rewind bound since the last rewind: a committer using
     * {@link #rewind} should call it after this commit.
     */
    public boolean rewindDue() {
        return rewindWanted;
    }

    /**
     * Rewinds the WAL without the committing thread waiting for the checkpoint. Call on that thread,
     * right after a commit, when {@link #rewindDue()}: it ends the committing connection's (empty)
     * transaction, so that its reads take the newest snapshot and hold none older in the WAL, and wakes
     * this class's thread, which copies and syncs the whole WAL and then has {@code committer} run
     * {@code done}, after putting the connection back into manual commit. Until {@code done} runs the
     * caller must not write on the connection (it may read); it runs whether or not the copy completed
     * (if not, {@link #rewindDue()} stays true and the next commit tries again), unless
     * {@code committer} refuses it (shutting down).
     */
    public void rewind(Executor committer, Runnable done) throws SQLException {
        rewindWanted = false;
        committing.setAutoCommit(true);
        handBack = new HandBack(committer, () -> {
            try {
                restoreManualCommit();
            } finally {
                done.run(); // even so: the writes it held then fail rather than wait for ever
            }
        });
        LockSupport.unpark(thread);
    }

    /**
     * Puts the committing connection back into manual commit after a {@link #rewind} whose hand-back will
     * not reach its committer (the loop stopped first), so that the committer can commit what it held.
     * Call on the committing connection's thread; the checkpoint thread may still be copying, which
     * SQLite lets a writer go on beside.
     */
    public void abandonRewind() {
        restoreManualCommit();
    }

    /**
     * Call on the committing connection's thread right after each of its commits. Does nothing unless
     * the WAL has grown past the rewind bound since the last rewind; then checkpoints on that connection,
     * so that its next write starts the WAL over. A checkpoint that could not copy everything (the
     * background one was running) is tried again after the next commit; a failure is logged and left to
     * the next time the bound is passed: the WAL only grows meanwhile.
     */
    public void afterCommit() {
        if (!rewindWanted) {
            return;
        }
        rewindWanted = false;
        try {
            committing.setAutoCommit(true); // ends the empty transaction the commit opened; a checkpoint needs none
            rewindWanted = !passiveCheckpoint(committing).complete();
        } catch (SQLException e) {
            LOG.log(System.Logger.Level.WARNING, "rewinding the WAL failed; it goes on growing until the next try: "
                + e.getMessage());
        } finally {
            restoreManualCommit();
        }
    }

    /** Back to the manual-commit mode the committer's transactions need, whatever happened before. */
    private void restoreManualCommit() {
        try {
            committing.setAutoCommit(false);
        } catch (SQLException e) {
            throw new IllegalStateException("the write connection could not return to manual commit", e);
        }
    }

    private static Progress passiveCheckpoint(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet row = s.executeQuery("PRAGMA wal_checkpoint(PASSIVE)")) {
            row.next();
            return new Progress(row.getInt(1) != 0, row.getInt(2), row.getInt(3));
        }
    }

    /**
     * What a checkpoint found: whether another checkpoint held the file (SQLite then reports -1 for
     * both counts), frames in the WAL and, of those, frames copied into the database file.
     */
    record Progress(boolean busy, int walFrames, int copied) {
        /** Every frame is in the database file: the next write may start the WAL over. */
        boolean complete() {
            return !busy && copied >= walFrames;
        }
    }

    private void run() {
        while (!closing) {
            if (handBack == null) {
                LockSupport.parkNanos(this, intervalNanos);
            }
            if (closing) {
                return;
            }
            HandBack owed = handBack;
            if (owed != null) {
                finishRewind(owed);
                continue;
            }
            try {
                checkpointNow();
                failing = false;
            } catch (SQLException e) {
                if (!failing) { // once per run of failures, not every interval
                    LOG.log(System.Logger.Level.WARNING, "WAL checkpoint failed; retrying every interval: " + e.getMessage());
                }
                failing = true;
            }
        }
    }

    /**
     * Copies the whole WAL for a {@link #rewind} (the committer appends nothing meanwhile, so only
     * another connection's old snapshot can hold it back), then hands back: always, so the committer's
     * writes never wait for more than this.
     */
    private void finishRewind(HandBack owed) {
        try {
            boolean complete = false;
            for (int attempt = 0; attempt < REWIND_ATTEMPTS && !complete && !closing; attempt++) {
                if (attempt > 0) {
                    LockSupport.parkNanos(this, REWIND_RETRY_NANOS);
                }
                complete = checkpointNow().complete();
            }
            rewindWanted = !complete; // the WAL is still past the bound until the committer's next write
        } catch (SQLException e) {
            rewindWanted = true;
            LOG.log(System.Logger.Level.WARNING, "rewinding the WAL failed; it goes on growing until the next try: "
                + e.getMessage());
        } finally {
            handBack = null;
            try {
                owed.committer().execute(owed.done());
            } catch (RejectedExecutionException e) {
                // the committer is shutting down: its close commits what it held
            }
        }
    }

    /** Stops the thread (a checkpoint under way finishes first), then closes the connection. */
    @Override
    public void close() {
        closing = true;
        LockSupport.unpark(thread);
        boolean interrupted = OwnedThreads.awaitEnd(thread);
        try {
            db.close();
        } catch (SQLException e) {
            LOG.log(System.Logger.Level.WARNING, "closing the checkpoint connection failed: " + e.getMessage());
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
