package dev.hotpath.store;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

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
 * <p>Isolation: a write that throws is rolled back alone and reported through {@link Write#failed};
 * its neighbours commit (see {@link BatchTransaction}). A failed commit fails the whole batch, and the
 * writer goes on with the next one.
 *
 * <p>Backpressure: the queue is bounded; {@link #offer} returns false when it is full, and the caller
 * answers 503. Nothing waits without bound.
 *
 * <p>Reconnection: a writer built on a {@link ConnectionSource} (PostgreSQL) survives its server going
 * away. A batch that fails on a broken connection closes it; each later batch first opens a new one,
 * so while the server is down every batch fails at once with the connect error (no queueing, no
 * retry loop), and the first batch after it is back commits. A writer on a fixed {@link Connection}
 * (SQLite) keeps it for life.
 *
 * <p>Every write {@link #offer} accepted gets exactly one outcome, also when {@link #close()} runs
 * meanwhile: the thread ends only when the queue is empty and no offer is between its check of
 * {@code closing} and its enqueue.
 */
public final class GroupCommitWriter implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(GroupCommitWriter.class.getName());

    /** How often a closing writer looks again while offers are still under way: each takes moments. */
    private static final long CLOSING_LOOK_NANOS = 100_000;

    private final BatchTransaction transaction;
    private final BlockingQueue<Write> queue;
    private final int maxBatch;
    private final long intervalNanos;
    private final Executor acknowledgements;
    private final Runnable afterCommit;
    private final Thread thread;
    /** The idle thread's rest: an offer wakes it, close() unparks it. */
    private final Rest rest = new Rest();
    /**
     * Whether the idle thread may go on resting. This and the task below are made once: a lambda per
     * rest and per commit was garbage on every batch.
     */
    private final BooleanSupplier restFurther = this::nothingQueued;
    /** The acknowledgements task of the batch just committed, which {@link #acknowledging} and {@link #outcome} name. */
    private final Runnable acknowledgeTask = this::acknowledgeCommitted;
    /** The batch being acknowledged and its outcome; writer thread only, set for the length of one acknowledgements task. */
    private List<Write> acknowledging;
    private Exception[] outcome;
    /** Offers that may still enqueue: the thread does not end while one is in progress. */
    private final AtomicInteger offering = new AtomicInteger();
    private final AtomicLong batches = new AtomicLong();
    private final AtomicLong committedWrites = new AtomicLong();
    private final AtomicLong failedWrites = new AtomicLong();
    private final AtomicLong commitNanos = new AtomicLong();
    /** When the last commit ended ({@link System#nanoTime()}); writer thread only. */
    private long lastCommitEnded;
    private volatile boolean closing;

    /**
     * Starts the writer thread.
     *
     * @param db the write connection in manual-commit mode ({@link SqliteDatabase#openForWriting}),
     *     owned (and closed) by the writer from now on
     */
    public GroupCommitWriter(Connection db, GroupCommitConfig config) {
        this(new BatchTransaction(db, config.listener()), config);
    }

    /**
     * Starts the writer thread on connections from {@code connections}, opened by the first batch and
     * again after one broke (see Reconnection above); the writer closes the one it holds on close.
     */
    public GroupCommitWriter(ConnectionSource connections, GroupCommitConfig config) {
        this(new BatchTransaction(connections, config.listener()), config);
    }

    private GroupCommitWriter(BatchTransaction transaction, GroupCommitConfig config) {
        this.transaction = transaction;
        this.queue = new ArrayBlockingQueue<>(config.queueCapacity());
        this.maxBatch = config.maxBatch();
        this.intervalNanos = config.commitInterval().toNanos();
        this.acknowledgements = config.acknowledgements();
        this.afterCommit = config.afterCommit();
        this.lastCommitEnded = System.nanoTime() - intervalNanos;
        this.thread = Thread.ofPlatform().name(config.name()).daemon(false).start(this::run);
    }

    /** Queues a write; false when the queue is full or the writer is closing (answer 503). */
    public boolean offer(Write write) {
        offering.incrementAndGet();
        try {
            if (closing || !queue.offer(write)) {
                return false;
            }
            rest.wake();
            return true;
        } finally {
            offering.decrementAndGet();
        }
    }

    /** Counters since start, read without stopping the writer. */
    public Stats stats() {
        return new Stats(batches.get(), committedWrites.get(), failedWrites.get(), commitNanos.get(), queue.size());
    }

    /** Batches committed, writes committed and failed, total time in commit, writes queued now. */
    public record Stats(long batches, long committed, long failed, long commitNanos, int queued) {
    }

    /**
     * Refuses new writes, commits everything already accepted, stops the thread, then closes the
     * prepared statements and the connection. Returns when all of it is done.
     */
    @Override
    public void close() {
        closing = true;
        LockSupport.unpark(thread); // a batch waiting for its interval commits now, a resting thread looks
        boolean interrupted = OwnedThreads.awaitEnd(thread); // the connection is closed below: never while the thread may use it
        transaction.close();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        List<Write> batch = new ArrayList<>(maxBatch);
        while (true) {
            Write first = queue.poll();
            if (first == null) {
                if (!closing) {
                    rest.rest(Long.MAX_VALUE, restFurther);
                } else if (offering.get() == 0 && queue.isEmpty()) {
                    return;
                } else {
                    // an offer is between its check of closing and its enqueue
                    LockSupport.parkNanos(this, CLOSING_LOOK_NANOS);
                }
                continue;
            }
            batch.add(first);
            queue.drainTo(batch, maxBatch - 1);
            long due = lastCommitEnded + intervalNanos;
            long wait = due - System.nanoTime();
            if (wait > 0 && batch.size() < maxBatch) {
                while (wait > 0 && !closing) { // a park may end early (a late wake-up's spare permit)
                    LockSupport.parkNanos(this, wait);
                    wait = due - System.nanoTime();
                }
                queue.drainTo(batch, maxBatch - batch.size());
            }
            commit(batch);
            lastCommitEnded = System.nanoTime();
            batch.clear();
        }
    }

    private void commit(List<Write> batch) {
        long start = System.nanoTime();
        Exception[] batchOutcome = transaction.run(batch);
        commitNanos.addAndGet(System.nanoTime() - start);
        batches.incrementAndGet();
        acknowledging = batch;
        outcome = batchOutcome;
        try {
            acknowledgements.execute(acknowledgeTask); // runs the task before it returns (GroupCommitConfig)
        } finally {
            acknowledging = null;
            outcome = null;
        }
        try {
            afterCommit.run();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "the work after a commit failed; the writer goes on", e);
        }
    }

    private boolean nothingQueued() {
        return queue.isEmpty() && !closing;
    }

    /** Tells each write of the batch just committed its outcome, in queue order. */
    private void acknowledgeCommitted() {
        for (int i = 0; i < acknowledging.size(); i++) {
            Write write = acknowledging.get(i);
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
}
