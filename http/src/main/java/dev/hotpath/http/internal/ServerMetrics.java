package dev.hotpath.http.internal;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

/**
 * The engine's metrics, gathered at scrape time from every loop's {@link LoopCounters}: responses by
 * status, rejections by reason, connection events, and the open-connection and in-flight gauges.
 */
public final class ServerMetrics implements MultiCollector {
    private final ServerContext server;

    public ServerMetrics(ServerContext server) {
        this.server = server;
    }

    @Override
    public MetricSnapshots collect() {
        CounterSnapshot.Builder responses = CounterSnapshot.builder().name("hotpath_http_responses")
            .help("Responses sent, by status code");
        for (int status = 100; status < 600; status++) {
            long sum = 0;
            for (LoopState loop : server.loops()) {
                sum += loop.counters.status(status);
            }
            if (sum > 0) {
                responses.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
                    .labels(Labels.of("status", Integer.toString(status))).value(sum).build());
            }
        }
        CounterSnapshot.Builder rejections = CounterSnapshot.builder().name("hotpath_http_rejections")
            .help("Requests refused by the engine before a handler, by reason");
        for (Rejection rejection : Rejection.values()) {
            long sum = 0;
            for (LoopState loop : server.loops()) {
                sum += loop.counters.rejections(rejection);
            }
            rejections.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
                .labels(Labels.of("reason", rejection.name().toLowerCase(java.util.Locale.ROOT))).value(sum).build());
        }
        CounterSnapshot.Builder events = CounterSnapshot.builder().name("hotpath_http_connection_events")
            .help("Connections opened, refused at the limit, closed idle; requests overloaded or failed");
        for (LoopCounters.Event event : LoopCounters.Event.values()) {
            long sum = 0;
            for (LoopState loop : server.loops()) {
                sum += loop.counters.events(event);
            }
            events.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
                .labels(Labels.of("event", event.name().toLowerCase(java.util.Locale.ROOT))).value(sum).build());
        }
        return MetricSnapshots.of(responses.build(), rejections.build(), events.build(),
            gauge("hotpath_http_connections_open", "Open connections", server.openConnections()),
            gauge("hotpath_http_async_in_flight", "Async requests admitted and not yet answered", server.inFlight()));
    }

    private static GaugeSnapshot gauge(String name, String help, double value) {
        return GaugeSnapshot.builder().name(name).help(help)
            .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(value).build()).build();
    }
}
