package dev.hotpath.cli;

import dev.hotpath.apps.users.UsersApp;
import dev.hotpath.http.HttpServer;
import dev.hotpath.http.Routes;
import dev.hotpath.http.ServerConfig;
import dev.hotpath.http.Transport;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hotpath serve [APP]}: runs an app until SIGTERM or SIGINT, then drains (stop accepting,
 * finish requests in flight, close idle connections) and exits 0 within {@link #SHUTDOWN_GRACE_SECONDS}.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = "Serve an app over HTTP/1.1 until SIGTERM or SIGINT.")
final class ServeCommand implements Callable<Integer> {
    /** Grace for requests in flight at shutdown; the process exits within 10 s of the signal. */
    static final int SHUTDOWN_GRACE_SECONDS = 8;

    /** The apps this build serves. */
    enum App { USERS }

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", defaultValue = "users",
        description = "App to serve: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    private App app;

    @Option(names = "--bind", defaultValue = "127.0.0.1:8080", converter = Converters.HostPort.class,
        description = "Address to listen on, host:port (default: ${DEFAULT-VALUE}).")
    private InetSocketAddress bind;

    @Option(names = "--transport", defaultValue = "auto",
        description = "Socket transport: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}: io_uring, then epoll, then nio).")
    private Transport transport;

    @Option(names = "--event-loops", description = "Event loop threads (default: one per core).")
    private Integer eventLoops;

    @Mixin
    private LimitOptions limits;

    @Override
    public Integer call() throws InterruptedException {
        PrometheusRegistry metrics = new PrometheusRegistry();
        Routes routes = switch (app) {
            case USERS -> UsersApp.routes(metrics);
        };
        int loops = eventLoops == null ? Runtime.getRuntime().availableProcessors() : eventLoops;
        if (loops < 1) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--event-loops must be at least 1");
        }
        ServerConfig config = new ServerConfig(bind, transport, loops, limits.toLimits(spec.commandLine()),
            Clock.systemUTC(), metrics);
        CountDownLatch stop = new CountDownLatch(1);
        Signals.onTermination(stop::countDown);
        HttpServer server = HttpServer.start(config, routes);
        PrintWriter out = spec.commandLine().getOut();
        out.printf("hotpath %s listening on http://%s:%d (%s, %d event loops)%n", app.name().toLowerCase(),
            server.address().getHostString(), server.port(), server.transport().name().toLowerCase(), loops);
        out.flush();
        stop.await();
        out.println("hotpath: draining");
        out.flush();
        server.close(java.time.Duration.ofSeconds(SHUTDOWN_GRACE_SECONDS));
        out.println("hotpath: stopped");
        out.flush();
        return 0;
    }
}
