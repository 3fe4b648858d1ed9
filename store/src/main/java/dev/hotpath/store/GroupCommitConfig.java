package dev.hotpath.store;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * How a {@link GroupCommitWriter} runs. Start from {@link #named(String)}, which sets the defaults,
 * and change what differs with the {@code with*} methods.
 *
 * @param name the writer thread's name (shown in thread dumps and logs)
 * @param queueCapacity most writes waiting; {@link GroupCommitWriter#offer} refuses more (the caller
 *     answers 503). Default 4096.
 * @param maxBatch most writes in one transaction; 1 turns group commit off (for comparisons). Default 256.
 * @param commitInterval a commit begins no sooner than this after the previous one ended, gathering
 *     the writes that arrive meanwhile; a write that finds the writer idle for longer commits at once,
 *     so light load pays nothing, and under load each write waits up to an interval more. Worth it
 *     where a commit costs more than its fsync: in WAL mode every commit makes each reader drop its
 *     page cache. Default {@link Duration#ZERO}: no pacing.
 * @param acknowledgements runs one task per batch that holds all its {@link Write#committed()} and
 *     {@link Write#failed} calls; it must run the task before returning, and may hand their results on
 *     in one go (the HTTP engine's {@code Deferred::completeTogether}). Default {@code Runnable::run}.
 * @param listener told where batch transactions begin and when one is rolled back whole. Default
 *     {@link TransactionListener#NONE}.
 * @param afterCommit run on the writer thread after each batch, once its acknowledgements ran: work
 *     on the write connection that must not delay those answers ({@link BackgroundCheckpoints#afterCommit()}).
 *     Default: nothing.
 */
public record GroupCommitConfig(String name, int queueCapacity, int maxBatch, Duration commitInterval,
                                Executor acknowledgements, TransactionListener listener, Runnable afterCommit) {
    public static final int DEFAULT_QUEUE_CAPACITY = 4096;
    public static final int DEFAULT_MAX_BATCH = 256;

    public GroupCommitConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(commitInterval, "commitInterval");
        Objects.requireNonNull(acknowledgements, "acknowledgements");
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(afterCommit, "afterCommit");
        if (queueCapacity < 1 || maxBatch < 1 || commitInterval.isNegative()) {
            throw new IllegalArgumentException("queueCapacity and maxBatch must be positive, commitInterval not negative;"
                + " were " + queueCapacity + ", " + maxBatch + ", " + commitInterval);
        }
    }

    /** The defaults, for a writer thread called {@code name}. */
    public static GroupCommitConfig named(String name) {
        return new GroupCommitConfig(name, DEFAULT_QUEUE_CAPACITY, DEFAULT_MAX_BATCH, Duration.ZERO, Runnable::run,
            TransactionListener.NONE, () -> { });
    }

    public GroupCommitConfig withQueueCapacity(int queueCapacity) {
        return new GroupCommitConfig(name, queueCapacity, maxBatch, commitInterval, acknowledgements, listener, afterCommit);
    }

    public GroupCommitConfig withMaxBatch(int maxBatch) {
        return new GroupCommitConfig(name, queueCapacity, maxBatch, commitInterval, acknowledgements, listener, afterCommit);
    }

    public GroupCommitConfig withCommitInterval(Duration commitInterval) {
        return new GroupCommitConfig(name, queueCapacity, maxBatch, commitInterval, acknowledgements, listener, afterCommit);
    }

    public GroupCommitConfig withAcknowledgements(Executor acknowledgements) {
        return new GroupCommitConfig(name, queueCapacity, maxBatch, commitInterval, acknowledgements, listener, afterCommit);
    }

    public GroupCommitConfig withListener(TransactionListener listener) {
        return new GroupCommitConfig(name, queueCapacity, maxBatch, commitInterval, acknowledgements, listener, afterCommit);
    }

    public GroupCommitConfig withAfterCommit(Runnable afterCommit) {
        return new GroupCommitConfig(name, queueCapacity, maxBatch, commitInterval, acknowledgements, listener, afterCommit);
    }
}
