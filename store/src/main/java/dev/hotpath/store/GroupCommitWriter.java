package dev.hotpath.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The single writer of one database: one thread owns the write connection, takes every write queued
 * at that moment (up to {@code maxBatch}), runs them in one transaction, commits (one fsync under
 * {@code synchronous=FULL}), then calls {@link Write#committed()} for each in queue order. So the
 * order is always: log, then publish, then acknowledge; and a request is answered only after the
 * commit that holds its write.
 *
 * <p>Cost: one commit per batch instead of per write. An fsync costs 0.2 to 1 ms here, so one commit
 * per write tops out near 1,000 to 5,000 writes/s, while a batch of 256 amortizes it to microseconds.
 *
 * <p>Isolation: the batch first runs without savepoints. If a write throws, the whole transaction is
 * rolled back and the batch is retried with a savepoint around each write, so the failing write is
 * rolled back alone and reported through {@link Write#failed}, and its neighbours commit.
 *
 * <p>Backpressure: the queue is bounded; {@link #offer} returns false when it is full, and the caller
 * answers 503. Nothing waits without bound.
 */
public final class GroupCommitWriter implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(GroupCommitWriter.class.getName());
    private static final long IDLE_POLL_MILLIS = 50;

    private final Connection db;
    private final TransactionListener listener;
    private final BlockingQueue<Write> queue;
    private final int maxBatch;
    private final long intervalNanos;
    /** When the last commit ended ({@link System#nanoTime()}); writer thread only. */
    private long lastCommitEnded;
    private final Executor acknowledgements;
    private final Thread thread;
    private final AtomicLong batches = new AtomicLong();
    private final AtomicLong committedWrites = new AtomicLong();
    private final AtomicLong failedWrites = new AtomicLong();
    private final AtomicLong commitNanos = new AtomicLong();
    private volatile boolean closing;

    /**
     * Starts the writer thread.
     *
     * @param db the write connection in manual-commit mode, owned (and closed) by the writer from now
     *     on; null for {@link Durability#NONE}, where writes are only published
     */
    public GroupCommitWriter(String name, Connection db, int queueCapacity, int maxBatch) {
        this(name, db, queueCapacity, maxBatch, TransactionListener.NONE);
    }

    /**
     * Starts the writer thread, telling {@code listener} where each batch transaction begins and when
     * it is rolled back as a whole (state that writes keep on the writer thread, such as the next id,
     * must go back with it).
     */
    public GroupCommitWriter(String name, Connection db, int queueCapacity, int maxBatch, TransactionListener listener) {
        this(name, db, queueCapacity, maxBatch, Duration.ZERO, Runnable::run, listener);
    }

    /**
     * Starts the writer thread, which begins a commit no sooner than {@code commitInterval} after the
     * previous one ended (none with {@link Duration#ZERO}), gathering the writes that arrive meanwhile.
     * A write that finds the writer idle for longer commits at once, so light load pays nothing; under
     * load, commits are at most one per interval and each write waits up to an interval more. That
     * matters where a commit costs more than its fsync: in WAL mode every commit also makes each reader
     * drop its page cache, and a commit rewrites the pages it touched into the log. {@link #close()}
     * ends a wait.
     * A batch's acknowledgements ({@link Write#committed()}, {@link Write#failed}) run together inside
     * one task given to {@code acknowledgements}, which must run it before returning and may hand their
     * results on in one go (the HTTP engine's {@code Deferred::completeTogether}); {@code Runnable::run}
     * runs them as they are.
     */
    public GroupCommitWriter(String name, Connection db, int queueCapacity, int maxBatch, Duration commitInterval,
                             Executor acknowledgements, TransactionListener listener) {
        if (maxBatch < 1 || queueCapacity < 1 || commitInterval.isNegative()) {
            throw new IllegalArgumentException("queueCapacity and maxBatch must be positive, commitInterval not negative");
        }
        this.intervalNanos = commitInterval.toNanos();
        this.lastCommitEnded = System.nanoTime() - intervalNanos;
        this.acknowledgements = acknowledgements;
        this.db = db;
        this.listener = listener;
        this.queue = new ArrayBlockingQueue<>(queueCapacity);
        this.maxBatch = maxBatch;
        this.thread = Thread.ofPlatform().name(name).daemon(false).start(this::run);
    }

    /** Queues a write; false when the queue is full or the writer is closing (answer 503). */
    public boolean offer(Write write) {
        return !closing && queue.offer(write);
    }

    /** Counters since start, read without stopping the writer. */
    public Stats stats() {
        return new Stats(batches.get(), committedWrites.get(), failedWrites.get(), commitNanos.get(), queue.size());
    }

    /** Batches committed, writes committed and failed, total time in commit, writes queued now. */
    public record Stats(long batches, long committed, long failed, long commitNanos, int queued) {
    }

    /** Told, on the writer thread, where batch transactions begin and when one is rolled back whole. */
    public interface TransactionListener {
        TransactionListener NONE = new TransactionListener() {
            @Override
            public void begun() {
            }

            @Override
            public void rolledBack() {
            }
        };

        void begun();

        void rolledBack();
    }

    /** Commits everything already queued, refuses new writes, stops the thread, closes the connection. */
    @Override
    public void close() {
        closing = true;
        LockSupport.unpark(thread); // a batch waiting for its interval commits now
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (db != null) {
            try {
                db.close();
            } catch (SQLException e) {
                LOG.log(System.Logger.Level.WARNING, "closing the write connection failed", e);
            }
        }
    }

    private void run() {
        List<Write> batch = new ArrayList<>(maxBatch);
        while (true) {
            Write first;
            try {
                first = queue.poll(IDLE_POLL_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                first = queue.poll();
            }
            if (first == null) {
                if (closing && queue.isEmpty()) {
                    return;
                }
                continue;
            }
            batch.add(first);
            queue.drainTo(batch, maxBatch - 1);
            long wait = lastCommitEnded + intervalNanos - System.nanoTime();
            if (wait > 0 && batch.size() < maxBatch && !closing) {
                LockSupport.parkNanos(wait);
                queue.drainTo(batch, maxBatch - batch.size());
            }
            commit(batch);
            lastCommitEnded = System.nanoTime();
            batch.clear();
        }
    }

    private void commit(List<Write> batch) {
        long start = System.nanoTime();
        Exception[] outcome = new Exception[batch.size()];
        listener.begun();
        if (db == null) {
            applyWithoutDatabase(batch, outcome);
        } else {
            try {
                if (!applyAll(batch)) {
                    applyEachIsolated(batch, outcome);
                }
                db.commit();
            } catch (SQLException e) {
                rollbackQuietly();
                java.util.Arrays.fill(outcome, e);
            }
        }
        commitNanos.addAndGet(System.nanoTime() - start);
        batches.incrementAndGet();
        acknowledgements.execute(() -> acknowledge(batch, outcome));
    }

    /** Tells each write of a finished batch its outcome, in queue order. */
    private void acknowledge(List<Write> batch, Exception[] outcome) {
        for (int i = 0; i < batch.size(); i++) {
            Write write = batch.get(i);
            try {
                if (outcome[i] == null) {
                    committedWrites.incrementAndGet();
                    write.committed();
                } else {
                    failedWrites.incrementAndGet();
                    write.failed(outcome[i]);
                }
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "a write's completion failed", e);
            }
        }
    }

    /** The fast path: every write in the transaction, no savepoints. False (rolled back) if one threw. */
    private boolean applyAll(List<Write> batch) throws SQLException {
        try {
            for (Write write : batch) {
                write.apply(db);
            }
            return true;
        } catch (SQLException | RuntimeException e) {
            db.rollback();
            listener.rolledBack();
            listener.begun();
            return false;
        }
    }

    /** Durability NONE: each write applies (with a null connection) and commits or fails alone. */
    private static void applyWithoutDatabase(List<Write> batch, Exception[] outcome) {
        for (int i = 0; i < batch.size(); i++) {
            try {
                batch.get(i).apply(null);
            } catch (SQLException | RuntimeException e) {
                outcome[i] = e;
            }
        }
    }

    /** The retry: each write in its own savepoint, so a failing one rolls back alone. */
    private void applyEachIsolated(List<Write> batch, Exception[] outcome) throws SQLException {
        for (int i = 0; i < batch.size(); i++) {
            Savepoint savepoint = db.setSavepoint();
            try {
                batch.get(i).apply(db);
                db.releaseSavepoint(savepoint);
            } catch (SQLException | RuntimeException e) {
                db.rollback(savepoint);
                db.releaseSavepoint(savepoint);
                outcome[i] = e;
            }
        }
    }

    private void rollbackQuietly() {
        listener.rolledBack();
        try {
            db.rollback();
        } catch (SQLException e) {
            LOG.log(System.Logger.Level.WARNING, "rollback after a failed commit failed", e);
        }
    }
}
