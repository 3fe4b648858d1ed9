package dev.hotpath.cli;

import dev.hotpath.http.ServerConfig;
import dev.hotpath.http.Transport;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetSocketAddress;
import java.time.Clock;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The engine's flags, the same for every app: where to listen, the transport, the loops, every limit. */
final class ServerOptions {
    @Option(names = "--bind", converter = Converters.HostPort.class,
        description = "Address to listen on, host:port; port 0 picks a free one (default: the app's own).")
    private InetSocketAddress bind;

    @Option(names = "--transport", defaultValue = "auto",
        description = "Socket transport: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}: io_uring, then epoll, then nio).")
    private Transport transport;

    @Option(names = "--event-loops", description = "Event loop threads (default: one per core).")
    private Integer eventLoops;

    @Mixin
    private LimitOptions limits;

    /** The {@code --bind} given, or null. */
    InetSocketAddress bind() {
        return bind;
    }

    /** The event loops the server will run: {@code --event-loops}, else one per core this process may use. */
    int eventLoops() {
        return eventLoops == null ? Runtime.getRuntime().availableProcessors() : eventLoops;
    }

    /** The engine's config for serving on {@code address}; a limit out of range is an {@link InvalidFlags}. */
    ServerConfig toConfig(InetSocketAddress address, PrometheusRegistry metrics) {
        int loops = eventLoops();
        if (loops < 1) {
            throw new InvalidFlags("--event-loops must be at least 1");
        }
        return new ServerConfig(address, transport, loops, limits.toLimits(), Clock.systemUTC(), metrics);
    }
}
