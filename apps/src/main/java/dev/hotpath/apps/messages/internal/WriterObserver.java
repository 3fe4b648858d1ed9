package dev.hotpath.apps.messages.internal;

import dev.hotpath.http.Deferred;
import dev.hotpath.store.TransactionListener;
import java.util.concurrent.Executor;

/**
 * Watches the group-commit writer from the outside, as its listener and its acknowledgement executor:
 * the size of each batch (the writes acknowledged in one task) and its latency, from the first
 * {@link #begun()} of the batch (its retry write by write is part of it) to its acknowledgement, that
 * is apply, commit and fsync. The answers themselves are handed on with
 * {@link Deferred#completeTogether}, one task per event loop per batch.
 *
 * <p>Writer thread only, but for the histograms, which a scrape reads.
 */
final class WriterObserver implements TransactionListener, Executor {
    /** Batch sizes up to the largest {@code --max-batch} worth telling apart, and a stream worker's batch. */
    static final double[] SIZES = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192};
    /** Seconds: an fsync here costs 0.2 to 1 ms, a batch of hundreds some ms more. */
    static final double[] SECONDS = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1};

    final Buckets batchSizes = new Buckets(SIZES);
    final Buckets batchSeconds = new Buckets(SECONDS);
    private long begunNanos = -1;
    private int acknowledged;

    @Override
    public void begun() {
        if (begunNanos < 0) {
            begunNanos = System.nanoTime();
        }
    }

    @Override
    public void rolledBack() {
        // the batch goes on (retried write by write) or fails; either way it is acknowledged once
    }

    /** Called by each write of the batch from its {@code committed()} or {@code failed()}. */
    void acknowledging() {
        acknowledged++;
    }

    /** Called by a write that stores {@code messages} at once (a batch from the stream). */
    void acknowledging(int messages) {
        acknowledged += messages;
    }

    @Override
    public void execute(Runnable acknowledgements) {
        if (begunNanos >= 0) {
            batchSeconds.record((System.nanoTime() - begunNanos) / 1e9);
        }
        begunNanos = -1;
        acknowledged = 0;
        Deferred.completeTogether(acknowledgements);
        batchSizes.record(acknowledged);
    }
}
