package dev.hotpath.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Group commit on the thread that also reads: for a server with one event loop, which then needs only
 * one connection. The loop offers each write as its request arrives; the first write of a turn asks
 * the loop to commit at the end of the turn, after every request it read in that turn was handled,
 * and that commit holds all of them: one transaction, then each {@link Write#committed()} (or
 * {@link Write#failed}) in offer order, on the loop. Isolation of a failing write is
 * {@link BatchTransaction}'s, as for the {@link GroupCommitWriter}.
 *
 * <p>Why: SQLite keeps a connection's page cache only while no other connection changes the
 * database. With readers and a writer on separate connections, each commit of the writer makes every
 * reader drop its cache and read its pages again (in the social API's closed-loop mix, two {@code pread}
 * calls a request and a writer thread of its own). Reading and writing on one connection keeps the
 * cache across commits.
 *
 * <p>Cost: the commit runs on the loop, so the loop's requests wait for it; under
 * {@code synchronous=NORMAL} a commit appends to the WAL without an fsync (tens of microseconds),
 * which is why this suits that durability and not {@code FULL}, whose fsync belongs on a writer
 * thread. SQLite's automatic checkpoints would run here too, after the commit that fills the WAL past
 * 1,000 pages, and those do fsync (the WAL, then the database file), stalling the loop: so the
 * committer takes a {@link BackgroundCheckpoints} that has taken over the connection's checkpoints.
 * When that asks for a rewind of the WAL, the committer holds the writes offered meanwhile (they are
 * not answered, so nothing acknowledged waits) until the checkpoint thread hands back, and commits
 * them then; the loop's reads go on. Not thread-safe:
 * one loop only, which offers, commits and reads; {@link #close()} after that loop has stopped.
 *
 * <p>"The end of the turn" is when the loop's executor runs the commit: with the engine's
 * {@code EventLoops.current()}, the end of the turn or, while the loop stays busy, its next read once
 * the first write has waited into another millisecond, so a write waits about a millisecond at most.
 */
public final class LoopCommitter implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(LoopCommitter.class.getName());
    private final BatchTransaction transaction;
    private final int capacity;
    private final BackgroundCheckpoints checkpoints;
    private List<Write> pending = new ArrayList<>();
    private List<Write> committing = new ArrayList<>();
    /** The loop of the last offer: where the commit, and the end of a rewind, run. */
    private Executor loop;
    /** A rewind of the WAL is under way: writes are held, not committed, until it hands back. */
    private boolean rewinding;

    /**
     * @param db the connection in manual-commit mode ({@link SqliteDatabase#openForWriting}), owned (and
     *     closed) by the committer from now on; the loop may read on it between commits
     * @param capacity writes a turn may hold; one more is refused (the caller answers 503)
     * @param checkpoints the checkpoints of {@code db}'s database, which took over its checkpoints
     *     ({@link BackgroundCheckpoints#takeOver}) and rewind its WAL when it grows too long
     */
    public LoopCommitter(Connection db, int capacity, BackgroundCheckpoints checkpoints) {
        this.transaction = new BatchTransaction(db, TransactionListener.NONE);
        this.capacity = capacity;
        this.checkpoints = checkpoints;
    }

    /**
     * Holds {@code write} for the commit at the end of this turn of {@code loop}, the caller's own event
     * loop; false when the turn already holds {@code capacity} writes.
     */
    public boolean offer(Write write, Executor loop) {
        if (pending.size() == capacity) {
            return false;
        }
        this.loop = loop;
        if (pending.isEmpty() && !rewinding) {
            try {
                loop.execute(this::commit);
            } catch (RejectedExecutionException e) {
                return false; // the loop is shutting down: nothing would commit this write
            }
        }
        pending.add(write);
        return true;
    }

    /**
     * Commits the turn's writes, then tells each its outcome, in offer order; then, when the WAL is due
     * for a rewind, holds the next writes until the checkpoint thread has copied it all.
     */
    private void commit() {
        if (rewinding || pending.isEmpty()) {
            return; // held until the rewind hands back, or already committed by close()
        }
        List<Write> batch = pending;
        pending = committing;
        committing = batch;
        try {
            Exception[] outcome = transaction.run(batch);
            for (int i = 0; i < batch.size(); i++) {
                try {
                    if (outcome[i] == null) {
                        batch.get(i).committed();
                    } else {
                        batch.get(i).failed(outcome[i]);
                    }
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.ERROR, "a write's completion failed", e);
                }
            }
            startRewindIfDue();
        } finally {
            batch.clear(); // never applied twice, whatever was thrown
        }
    }

    private void startRewindIfDue() {
        if (!checkpoints.rewindDue()) {
            return;
        }
        try {
            checkpoints.rewind(loop, this::rewound);
            rewinding = true;
        } catch (SQLException e) {
            LOG.log(System.Logger.Level.WARNING, "could not start rewinding the WAL; it goes on growing: " + e.getMessage());
        }
    }

    /** On the loop, once the checkpoint thread hands back: commits the writes held meanwhile. */
    private void rewound() {
        rewinding = false;
        commit();
    }

    /**
     * Commits what a turn still holds (nothing, once the loop has drained), then closes the statements
     * and the connection. Close the {@link BackgroundCheckpoints} after this: a rewind still under way
     * hands back to a loop that has stopped, so what it held is committed here.
     */
    @Override
    public void close() {
        if (rewinding) {
            rewinding = false;
            checkpoints.abandonRewind();
        }
        commit();
        transaction.close();
    }
}
