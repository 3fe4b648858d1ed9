package dev.hotpath.cli;

import dev.hotpath.apps.messages.MessagesApp;
import dev.hotpath.apps.messages.MessagesConfig;
import dev.hotpath.apps.messages.MessagesWorker;
import dev.hotpath.apps.messages.StreamConfig;
import dev.hotpath.http.HttpServer;
import dev.hotpath.http.ServerConfig;
import dev.hotpath.store.RedisConfig;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code hotpath messages worker}: the messages stream's worker as a process of its own (docs/MESSAGES.md). */
@Command(name = "messages", mixinStandardHelpOptions = true, description = "The messages service's stream worker.")
@CommandTree.Subcommands({MessagesCommand.Worker.class})
final class MessagesCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** {@code hotpath messages worker --stream redis://... (--data DIR | --store postgres://...)}. */
    @Command(name = "worker", mixinStandardHelpOptions = true,
        description = "Store the stream's messages into DIR's messages.db (or the --store database), beside"
            + " `hotpath serve messages --worker off` on the same store; runs until SIGTERM or SIGINT.")
    static final class Worker implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Option(names = "--stream", required = true, description = "The stream's Redis, redis://HOST[:PORT][/DB].")
        private String stream;

        @Mixin
        private MessagesStoreOptions storage;

        @Option(names = "--metrics-bind", paramLabel = "HOST:PORT", converter = Converters.HostPort.class,
            description = "Serve /metrics, /health and /ready there (port 0 picks a free one); none without it.")
        private InetSocketAddress metricsBind;

        @Option(names = "--claim-idle", defaultValue = "30s", converter = Converters.Span.class,
            description = "Take over another worker's entry once it has been pending this long (default: ${DEFAULT-VALUE}).")
        private Duration claimIdle;

        @Override
        public Integer call() throws InterruptedException {
            MessagesConfig config = storage.config(spec.commandLine().getParseResult()::hasMatchedOption,
                MessagesConfig.MAX_BATCH);
            try {
                config = config.withStream(StreamConfig.of(RedisConfig.parse(stream), true));
                config = config.withStream(config.stream().withTimes(claimIdle, config.stream().recoveryInterval(),
                    config.stream().trimInterval()));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            PrintWriter out = spec.commandLine().getOut();
            CountDownLatch stop = new CountDownLatch(1);
            HttpServer metrics = null;
            try (MessagesWorker worker = MessagesWorker.open(config)) {
                Signals.onTermination(stop::countDown);
                if (metricsBind != null) {
                    PrometheusRegistry registry = new PrometheusRegistry();
                    metrics = HttpServer.start(ServerConfig.of(metricsBind).withEventLoops(1).withMetrics(registry),
                        worker.routes(registry));
                }
                out.println("hotpath messages worker " + worker.consumer() + ": storing " + stream + " into "
                    + MessagesApp.where(config));
                if (metrics != null) {
                    out.printf(Locale.ROOT, "hotpath messages worker metrics listening on http://%s:%d (%s)%n",
                        metrics.address().getHostString(), metrics.port(), metrics.transport().name().toLowerCase());
                }
                out.flush();
                stop.await();
                out.println("hotpath: stopping");
                out.flush();
            } finally {
                if (metrics != null) { // after the worker: /ready says 503 while it finishes its batch
                    metrics.close(Duration.ofSeconds(1));
                }
            }
            out.println("hotpath: stopped");
            out.flush();
            return 0;
        }
    }
}
