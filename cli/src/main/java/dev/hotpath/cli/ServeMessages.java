package dev.hotpath.cli;

import dev.hotpath.apps.App;
import dev.hotpath.apps.messages.MessagesApp;
import dev.hotpath.apps.messages.MessagesConfig;
import dev.hotpath.apps.messages.StreamConfig;
import dev.hotpath.store.RedisConfig;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetSocketAddress;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code hotpath serve messages}: the messages service (docs/MESSAGES.md), its direct durable path and,
 * with {@code --stream}, the stream path and its worker.
 */
@Command(name = "messages", mixinStandardHelpOptions = true,
    description = "The messages service: POST /message stored in SQLite (or PostgreSQL with --store) and answered 201"
        + " after its group commit;"
        + " with --stream, POST /message-fast answered 202 once Redis holds it, stored by the worker.")
final class ServeMessages extends AppCommand {
    @Mixin
    private MessagesStoreOptions storage;

    @Option(names = "--max-batch", defaultValue = "" + MessagesConfig.MAX_BATCH,
        description = "Most messages per group commit; 1 turns group commit off (default: ${DEFAULT-VALUE}).")
    private int maxBatch;

    @Option(names = "--stream", paramLabel = "URI",
        description = "The Redis stream behind POST /message-fast, redis://HOST[:PORT][/DB]; without it that route is 503.")
    private String stream;

    @Option(names = "--worker", paramLabel = "on|off",
        description = "Run the stream's worker in this process (default: on); off leaves it to `hotpath messages worker`.")
    private String worker;

    /** 127.0.0.1:8081, beside the shortener's 8080. */
    @Override
    InetSocketAddress defaultBind() {
        return new InetSocketAddress("127.0.0.1", 8081);
    }

    @Override
    App open(InetSocketAddress bind, PrometheusRegistry metrics, Invocation invocation) {
        MessagesConfig config = storage.config(invocation.given(), maxBatch);
        try {
            if (worker != null && !worker.equals("on") && !worker.equals("off")) {
                throw new IllegalArgumentException("--worker must be on or off, was '" + worker + "'");
            }
            if (stream != null) {
                config = config.withStream(StreamConfig.of(RedisConfig.parse(stream), !"off".equals(worker)));
            } else if (worker != null) {
                throw new IllegalArgumentException("--worker needs --stream");
            }
        } catch (IllegalArgumentException e) {
            throw new InvalidFlags(e.getMessage());
        }
        MessagesApp app = MessagesApp.open(config, metrics);
        invocation.out().println("hotpath: messages in " + MessagesApp.where(config) + " (durability "
            + config.durability().name().toLowerCase() + "; " + (stream == null ? "POST /message-fast answers 503 without --stream"
            : "stream " + stream + ", worker " + (config.stream().worker() ? "on" : "off")) + ")");
        return app;
    }
}
