package dev.hotpath.apps.shortener.internal;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

/** Shortener metrics read at scrape time: links stored, capacity, and the group-commit writer's work. */
public final class ShortenerMetrics implements MultiCollector {
    private final ShortenerService service;

    public ShortenerMetrics(ShortenerService service) {
        this.service = service;
    }

    @Override
    public MetricSnapshots collect() {
        var stats = service.writerStats();
        return MetricSnapshots.of(
            gauge("hotpath_shortener_links", "Live links", service.links()),
            gauge("hotpath_shortener_capacity", "Most links the store takes (--max-links)", service.capacity()),
            gauge("hotpath_store_queued_writes", "Writes waiting for the writer", stats.queued()),
            counter("hotpath_store_batches", "Group commits (one transaction and one fsync each)", stats.batches()),
            counter("hotpath_store_writes_committed", "Writes committed", stats.committed()),
            counter("hotpath_store_writes_failed", "Writes that could not be committed", stats.failed()),
            counter("hotpath_store_commit_seconds", "Time spent applying and committing batches",
                stats.commitNanos() / 1e9));
    }

    private static GaugeSnapshot gauge(String name, String help, double value) {
        return GaugeSnapshot.builder().name(name).help(help)
            .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(value).build()).build();
    }

    private static CounterSnapshot counter(String name, String help, double value) {
        return CounterSnapshot.builder().name(name).help(help)
            .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().value(value).build()).build();
    }
}
