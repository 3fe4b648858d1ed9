package dev.hotpath.apps.messages.internal;

import static dev.hotpath.apps.internal.Snapshots.counter;
import static dev.hotpath.apps.internal.Snapshots.gauge;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.concurrent.atomic.LongAdder;

/**
 * The stream path's metrics: messages accepted ({@code 202}), what the worker stored, dead-lettered and
 * its batch sizes, how long each stored entry took from {@code XADD} to its {@code XACK} (the store lag),
 * and the stream's length, the group's lag and pending count as the worker last
 * measured them ({@code -1} until it has, and where no worker runs). A scrape never waits on Redis:
 * the gauges are refreshed by the worker on its own thread.
 */
public final class StreamMetrics implements MultiCollector {
    /**
     * Seconds from an entry's {@code XADD} to the {@code XACK} after its commit: milliseconds under load,
     * seconds while a backlog drains, up to minutes after an outage of the store.
     */
    static final double[] LAG_SECONDS = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300};
    final LongAdder accepted = new LongAdder();
    final LongAdder stored = new LongAdder();
    final LongAdder deadLetters = new LongAdder();
    final LongAdder storeFailures = new LongAdder();
    final Buckets batchSizes = new Buckets(WriterObserver.SIZES);
    final Buckets storeLag = new Buckets(LAG_SECONDS);
    volatile long length = -1;
    volatile long lag = -1;
    volatile long pending = -1;

    /** Messages the worker stored since start (re-stored duplicates included). */
    public long stored() {
        return stored.sum();
    }

    /** Entries dead-lettered since start. */
    public long deadLetters() {
        return deadLetters.sum();
    }

    @Override
    public MetricSnapshots collect() {
        return MetricSnapshots.builder()
            .metricSnapshot(counter("hotpath_messages_stream_accepted",
                "Messages appended to the stream (answered 202)", accepted.sum()))
            .metricSnapshot(counter("hotpath_messages_stream_stored",
                "Stream entries the worker committed and acknowledged", stored.sum()))
            .metricSnapshot(counter("hotpath_messages_dead_letters",
                "Stream entries copied to hotpath:messages:dead", deadLetters.sum()))
            .metricSnapshot(counter("hotpath_messages_stream_store_failures",
                "Worker batches not stored because the store failed (retried later)", storeFailures.sum()))
            .metricSnapshot(batchSizes.snapshot("hotpath_messages_stream_batch_size", "Entries per worker batch"))
            .metricSnapshot(storeLag.snapshot("hotpath_messages_stream_store_lag_seconds",
                "From a stored entry's XADD (the time in its id) to its XACK after the commit"))
            .metricSnapshot(gauge("hotpath_messages_stream_length", "Entries in the stream (XLEN)", length))
            .metricSnapshot(gauge("hotpath_messages_stream_lag",
                "Entries not yet delivered to the group (XINFO GROUPS lag)", lag))
            .metricSnapshot(gauge("hotpath_messages_stream_pending",
                "Entries delivered and not yet acknowledged (XPENDING)", pending))
            .build();
    }
}
