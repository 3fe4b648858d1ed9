package dev.hotpath.apps.messages.internal;

import static dev.hotpath.apps.internal.Snapshots.counter;

import dev.hotpath.apps.internal.Snapshots;
import dev.hotpath.store.GroupCommitWriter;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * The messages app's metrics, read at scrape time: messages stored since start, refusals by their
 * {@link Refusal} code, and the writer's work (batches, writes, time in commit from
 * {@link GroupCommitWriter.Stats}; batch sizes and batch latency from {@link WriterObserver}).
 * Counting a refusal is one atomic add.
 */
public final class MessagesMetrics implements MultiCollector {
    private final AtomicLongArray refusals = new AtomicLongArray(Refusal.values().length);
    /** Direct creates committed: the writer's own count also holds the stream worker's batch writes. */
    private final LongAdder stored = new LongAdder();
    private final WriterObserver observer;
    private final Supplier<GroupCommitWriter.Stats> writerStats;

    MessagesMetrics(WriterObserver observer, Supplier<GroupCommitWriter.Stats> writerStats) {
        this.observer = observer;
        this.writerStats = writerStats;
    }

    /** Counts a {@code POST /message} committed (and answered 201). */
    void stored() {
        stored.increment();
    }

    /** Counts {@code refusal} and returns it, for {@code return metrics.refused(...)}. */
    Refusal refused(Refusal refusal) {
        refusals.incrementAndGet(refusal.ordinal());
        return refusal;
    }

    @Override
    public MetricSnapshots collect() {
        GroupCommitWriter.Stats stats = writerStats.get();
        CounterSnapshot.Builder refused = CounterSnapshot.builder().name("hotpath_messages_refusals")
            .help("Requests refused, by the error code of the answer");
        for (Refusal refusal : Refusal.values()) {
            refused.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
                .labels(Labels.of("code", refusal.code())).value(refusals.get(refusal.ordinal())).build());
        }
        MetricSnapshots.Builder snapshots = MetricSnapshots.builder()
            .metricSnapshot(counter("hotpath_messages_stored", "Messages committed since start (answered 201)",
                stored.sum()))
            .metricSnapshot(refused.build())
            .metricSnapshot(observer.batchSizes.snapshot("hotpath_store_batch_size", "Writes per group commit"))
            .metricSnapshot(observer.batchSeconds.snapshot("hotpath_store_batch_seconds",
                "From a batch's begin to its commit (apply, commit, fsync)"));
        Snapshots.writer(stats).forEach(snapshots::metricSnapshot);
        return snapshots.build();
    }
}
