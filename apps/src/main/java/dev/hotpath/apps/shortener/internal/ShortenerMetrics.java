package dev.hotpath.apps.shortener.internal;

import static dev.hotpath.apps.internal.Snapshots.gauge;

import dev.hotpath.apps.internal.Snapshots;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

/** Shortener metrics read at scrape time: links stored, capacity, and the group-commit writer's work. */
public final class ShortenerMetrics implements MultiCollector {
    private final ShortenerService service;

    public ShortenerMetrics(ShortenerService service) {
        this.service = service;
    }

    @Override
    public MetricSnapshots collect() {
        MetricSnapshots.Builder snapshots = MetricSnapshots.builder()
            .metricSnapshot(gauge("hotpath_shortener_links", "Live links", service.links()))
            .metricSnapshot(gauge("hotpath_shortener_capacity", "Most links the store takes (--max-links)",
                service.capacity()));
        Snapshots.writer(service.writerStats()).forEach(snapshots::metricSnapshot);
        return snapshots.build();
    }
}
