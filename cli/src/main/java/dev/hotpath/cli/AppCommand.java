package dev.hotpath.cli;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.hotpath.apps.App;
import dev.hotpath.http.HttpServer;
import dev.hotpath.http.ServerConfig;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.Predicate;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code hotpath serve APP}: one subclass per app, holding the app's own flags beside the engine's
 * ({@link ServerOptions}). Every app is run the same way: open it, serve its routes until SIGTERM or
 * SIGINT, then {@link App#beginDrain()}, let the engine finish what is in flight, {@link App#close()},
 * and exit 0 within 10 s of the signal.
 *
 * <p>Once the server is up, and before it says where it listens, the process collects its garbage once
 * unless its collector is Serial ({@link #collectStartUpGarbage()}).
 *
 * <p>Two readers fill a command's flags: {@link ServeFlags} for the plain command lines a server is
 * started with, so that the process never loads picocli, and picocli for the rest (help, and the lines it
 * refuses with its own message). Either one then calls {@link #serve}, so a subclass must not reach for
 * picocli's model of the command: what it needs of the invocation is in {@link Invocation}, and a flag
 * it refuses is an {@link InvalidFlags}.
 */
abstract class AppCommand implements Callable<Integer> {
    /** Grace for requests in flight at shutdown; the process exits within 10 s of the signal. */
    static final int SHUTDOWN_GRACE_SECONDS = 8;

    /** Set by picocli when it read the flags; {@link ServeFlags} leaves it null. */
    @Spec
    private CommandSpec spec;

    @Mixin
    ServerOptions server;

    /** Where the app listens without {@code --bind}. */
    InetSocketAddress defaultBind() {
        return new InetSocketAddress("127.0.0.1", 8080);
    }

    /**
     * Opens the app from its flags; a flag the app refuses is an {@link InvalidFlags}. What the operator
     * must know before the first request (where a new key is) goes to the invocation's {@code out}.
     */
    abstract App open(InetSocketAddress bind, PrometheusRegistry metrics, Invocation invocation);

    /**
     * What a command learns of its invocation besides its flags' values.
     *
     * @param app the app's name, as {@code serve} was given it
     * @param given whether a flag, by any of its names, was on the command line (not just defaulted)
     */
    record Invocation(String app, PrintWriter out, PrintWriter err, Predicate<String> given) {
    }

    /** picocli's entry, once it has read the flags. */
    @Override
    public final Integer call() throws InterruptedException {
        CommandLine commandLine = spec.commandLine();
        return serve(new Invocation(spec.name(), commandLine.getOut(), commandLine.getErr(),
            commandLine.getParseResult()::hasMatchedOption));
    }

    /** Serves until SIGTERM or SIGINT and returns the exit status, 0; a refused flag is an {@link InvalidFlags}. */
    final int serve(Invocation invocation) throws InterruptedException {
        PrintWriter out = invocation.out();
        InetSocketAddress bind = server.bind() != null ? server.bind() : defaultBind();
        PrometheusRegistry metrics = new PrometheusRegistry();
        ServerConfig config = server.toConfig(bind, metrics);
        CountDownLatch stop = new CountDownLatch(1);
        try (App app = open(bind, metrics, invocation)) {
            Signals.onTermination(stop::countDown);
            HttpServer httpServer = HttpServer.start(config, app.routes());
            collectStartUpGarbage();
            out.printf(Locale.ROOT, "hotpath %s listening on http://%s:%d (%s, %d event loops)%n", invocation.app(),
                httpServer.address().getHostString(), httpServer.port(), httpServer.transport().name().toLowerCase(),
                config.eventLoops());
            out.flush();
            stop.await();
            out.println("hotpath: draining");
            out.flush();
            app.beginDrain();
            httpServer.close(Duration.ofSeconds(SHUTDOWN_GRACE_SECONDS));
        }
        out.println("hotpath: stopped");
        out.flush();
        return 0;
    }

    /**
     * Start-up (loading classes, linking SQLite's functions, an app's preload) leaves garbage in the
     * young generation, which the JVM sizes from the machine's memory, not from what the server
     * allocates: at a few bytes per request it is not collected for minutes, and every page it touched
     * stays resident. One full collection here (30 ms, once) empties it, and a collector that gives
     * back what it empties returns those pages: under G1, what the JVM picks on two or more cores, an
     * idle server held 88 MB instead of 100 and S4 saturated peaked 12-29 MB lower (docs/BENCHMARKS.md,
     * 2026-12-07). Serial, its pick on one core, gives nothing back: eden's pages stay resident, and the
     * collection copies what is live (7 MB for the users app) onto old-generation pages no one had
     * touched. That paid while a request left more garbage than start-up's live set (S4 at 13 bytes a
     * request, 10 MB lower in an ad hoc A/B); once creates stopped leaving any, it cost more than it
     * saved (S4 saturated 5 MB higher, an idle server 6 MB), so under Serial start-up's garbage stays
     * where it is. The suite may already be loading the server during the pause, as it waits for a
     * connection, not for the line. {@code -XX:+DisableExplicitGC} turns it off everywhere.
     */
    private static void collectStartUpGarbage() {
        HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        if (!Boolean.parseBoolean(vm.getVMOption("UseSerialGC").getValue())) {
            System.gc();
        }
    }
}
