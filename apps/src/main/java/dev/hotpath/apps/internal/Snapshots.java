package dev.hotpath.apps.internal;

import dev.hotpath.store.GroupCommitWriter;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.List;

/**
 * The metric snapshots the apps' collectors build at scrape time: one-value gauges and counters, and
 * the group-commit writer's work under the same names in every app ({@code hotpath_store_*}), so a
 * dashboard reads any app's writer alike.
 */
public final class Snapshots {
    private Snapshots() {
    }

    public static GaugeSnapshot gauge(String name, String help, double value) {
        return GaugeSnapshot.builder().name(name).help(help)
            .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(value).build()).build();
    }

    public static CounterSnapshot counter(String name, String help, double value) {
        return CounterSnapshot.builder().name(name).help(help)
            .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().value(value).build()).build();
    }

    /** The writer's queue, batches, committed and failed writes, and time in commit. */
    public static List<MetricSnapshot> writer(GroupCommitWriter.Stats stats) {
        return List.of(
            gauge("hotpath_store_queued_writes", "Writes waiting for the writer", stats.queued()),
            counter("hotpath_store_batches", "Group commits (one transaction and one fsync each)", stats.batches()),
            counter("hotpath_store_writes_committed", "Writes committed", stats.committed()),
            counter("hotpath_store_writes_failed", "Writes that could not be committed", stats.failed()),
            counter("hotpath_store_commit_seconds", "Time spent applying and committing batches",
                stats.commitNanos() / 1e9));
    }
}
