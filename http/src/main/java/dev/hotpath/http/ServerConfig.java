package dev.hotpath.http;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.Objects;

/**
 * How to run a server: where to listen, on which transport, with how many event loops (one per core by
 * default), under which {@link ServerLimits}, with which clock for deadlines (tests inject one, so no
 * test sleeps) and into which Prometheus registry the engine's metrics go.
 */
public record ServerConfig(InetSocketAddress bind, Transport transport, int eventLoops, ServerLimits limits,
                           Clock clock, PrometheusRegistry metrics) {

    public ServerConfig {
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(metrics, "metrics");
        if (eventLoops < 1) {
            throw new IllegalArgumentException("eventLoops must be at least 1, was " + eventLoops);
        }
    }

    /** Defaults for everything but the address. */
    public static ServerConfig of(InetSocketAddress bind) {
        return new ServerConfig(bind, Transport.AUTO, Runtime.getRuntime().availableProcessors(),
            ServerLimits.DEFAULTS, Clock.systemUTC(), new PrometheusRegistry());
    }

    public ServerConfig withTransport(Transport value) {
        return new ServerConfig(bind, value, eventLoops, limits, clock, metrics);
    }

    public ServerConfig withEventLoops(int value) {
        return new ServerConfig(bind, transport, value, limits, clock, metrics);
    }

    public ServerConfig withLimits(ServerLimits value) {
        return new ServerConfig(bind, transport, eventLoops, value, clock, metrics);
    }

    public ServerConfig withClock(Clock value) {
        return new ServerConfig(bind, transport, eventLoops, limits, value, metrics);
    }

    public ServerConfig withMetrics(PrometheusRegistry value) {
        return new ServerConfig(bind, transport, eventLoops, limits, clock, value);
    }
}
