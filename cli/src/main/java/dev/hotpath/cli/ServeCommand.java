package dev.hotpath.cli;

import dev.hotpath.apps.shortener.ShortenerApp;
import dev.hotpath.apps.shortener.ShortenerConfig;
import dev.hotpath.apps.social.SocialApp;
import dev.hotpath.apps.social.SocialConfig;
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
    description = "Serve an app over HTTP/1.1 until SIGTERM or SIGINT: the URL shortener (default), users or social.")
final class ServeCommand implements Callable<Integer> {
    /** Grace for requests in flight at shutdown; the process exits within 10 s of the signal. */
    static final int SHUTDOWN_GRACE_SECONDS = 8;

    /** The apps this build serves. */
    enum App { SHORTENER, USERS, SOCIAL }

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

    @Option(names = "--sqlite-path", description = "social: the seeded database (default: $SQLITE_PATH).")
    private java.nio.file.Path sqlitePath;

    @Option(names = "--jwt-secret", description = "social: HMAC secret of the tokens (default: $JWT_SECRET).")
    private String jwtSecret;

    @Override
    public Integer call() throws InterruptedException {
        int loops = eventLoops == null ? Runtime.getRuntime().availableProcessors() : eventLoops;
        if (loops < 1) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--event-loops must be at least 1");
        }
        PrometheusRegistry metrics = new PrometheusRegistry();
        InetSocketAddress address = app == App.SOCIAL ? socialBind() : bind;
        ServerConfig config = new ServerConfig(address, transport, loops, limits.toLimits(spec.commandLine()),
            Clock.systemUTC(), metrics);
        PrintWriter out = spec.commandLine().getOut();
        ShortenerApp shortenerApp = null;
        AutoCloseable socialApp = null;
        Routes routes;
        if (app == App.SOCIAL) {
            SocialApp social = openSocial();
            socialApp = social;
            routes = social.routes();
        } else if (app == App.SHORTENER) {
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
            closeQuietly(socialApp);
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
        closeQuietly(socialApp);
        out.println("hotpath: stopped");
        out.flush();
        return 0;
    }

    /** {@code --bind} when given, else {@code HOST} (127.0.0.1) and {@code PORT} (3000), as the challenge runs it. */
    private InetSocketAddress socialBind() {
        if (spec.commandLine().getParseResult().hasMatchedOption("--bind")) {
            return bind;
        }
        String host = System.getenv().getOrDefault("HOST", "127.0.0.1");
        String port = System.getenv().getOrDefault("PORT", "3000");
        try {
            return new Converters.HostPort().convert(host + ":" + port);
        } catch (picocli.CommandLine.TypeConversionException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "HOST/PORT: " + e.getMessage());
        }
    }

    private SocialApp openSocial() {
        java.nio.file.Path database = sqlitePath;
        if (database == null && System.getenv("SQLITE_PATH") != null) {
            database = java.nio.file.Path.of(System.getenv("SQLITE_PATH"));
        }
        String secret = jwtSecret != null ? jwtSecret : System.getenv("JWT_SECRET");
        if (database == null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "serve social needs SQLITE_PATH or --sqlite-path");
        }
        if (secret == null || secret.isEmpty()) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "serve social needs JWT_SECRET or --jwt-secret");
        }
        try {
            return SocialApp.open(new SocialConfig(database, secret.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                shortener.durability(spec.commandLine(), dev.hotpath.store.Durability.NORMAL), Clock.systemUTC()));
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("cannot open " + database + ": " + e.getMessage(), e);
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception e) {
            System.getLogger(ServeCommand.class.getName()).log(System.Logger.Level.WARNING, "closing the app failed", e);
        }
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
