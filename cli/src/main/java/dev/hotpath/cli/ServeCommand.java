package dev.hotpath.cli;

import dev.hotpath.apps.shortener.ShortenerApp;
import dev.hotpath.apps.shortener.ShortenerConfig;
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
    description = "Serve an app over HTTP/1.1 until SIGTERM or SIGINT: the URL shortener (default) or users.")
final class ServeCommand implements Callable<Integer> {
    /** Grace for requests in flight at shutdown; the process exits within 10 s of the signal. */
    static final int SHUTDOWN_GRACE_SECONDS = 8;

    /** The apps this build serves. */
    enum App { SHORTENER, USERS }

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", defaultValue = "shortener",
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

    @Mixin
    private ShortenerOptions shortener;

    @Override
    public Integer call() throws InterruptedException {
        int loops = eventLoops == null ? Runtime.getRuntime().availableProcessors() : eventLoops;
        if (loops < 1) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--event-loops must be at least 1");
        }
        PrometheusRegistry metrics = new PrometheusRegistry();
        ServerConfig config = new ServerConfig(bind, transport, loops, limits.toLimits(spec.commandLine()),
            Clock.systemUTC(), metrics);
        PrintWriter out = spec.commandLine().getOut();
        ShortenerApp shortenerApp = null;
        Routes routes;
        if (app == App.SHORTENER) {
            ShortenerConfig shortenerConfig = shortener.toConfig(spec.commandLine(), bind);
            shortenerApp = ShortenerApp.open(shortenerConfig, metrics);
            routes = shortenerApp.routes();
            describeKeys(out, shortenerApp);
        } else {
            routes = UsersApp.routes(metrics);
        }
        CountDownLatch stop = new CountDownLatch(1);
        Signals.onTermination(stop::countDown);
        HttpServer server;
        try {
            server = HttpServer.start(config, routes);
        } catch (RuntimeException e) {
            if (shortenerApp != null) {
                shortenerApp.close();
            }
            throw e;
        }
        out.printf("hotpath %s listening on http://%s:%d (%s, %d event loops)%n", app.name().toLowerCase(),
            server.address().getHostString(), server.port(), server.transport().name().toLowerCase(), loops);
        out.flush();
        stop.await();
        out.println("hotpath: draining");
        out.flush();
        if (shortenerApp != null) {
            shortenerApp.beginDrain();
        }
        server.close(java.time.Duration.ofSeconds(SHUTDOWN_GRACE_SECONDS));
        if (shortenerApp != null) {
            shortenerApp.close();
        }
        out.println("hotpath: stopped");
        out.flush();
        return 0;
    }

    private void describeKeys(PrintWriter out, ShortenerApp shortenerApp) {
        if (shortenerApp.createdKeyFile() != null) {
            out.println("hotpath: new data dir; its first API key is in " + shortenerApp.createdKeyFile()
                + " (readable by you only; shown nowhere else)");
        } else {
            out.println("hotpath: API keys of " + shortener.dataDir() + " are managed with: hotpath keys --data "
                + shortener.dataDir());
        }
        out.println("hotpath: " + shortenerApp.links() + " links loaded");
    }
}
