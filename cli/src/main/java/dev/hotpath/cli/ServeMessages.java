package dev.hotpath.cli;

import dev.hotpath.apps.App;
import dev.hotpath.apps.messages.MessagesApp;
import dev.hotpath.apps.messages.MessagesConfig;
import dev.hotpath.store.Durability;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code hotpath serve messages}: the messages service's direct durable path (docs/MESSAGES.md). */
@Command(name = "messages", mixinStandardHelpOptions = true,
    description = "The messages service: each message stored in SQLite and answered 201 after its group commit.")
final class ServeMessages extends AppCommand {
    @Option(names = "--data", defaultValue = "./data-messages", description = "Data directory (default: ${DEFAULT-VALUE}).")
    private Path data;

    @Option(names = "--durability", defaultValue = "full", converter = Converters.DurabilityMode.class,
        description = "full (fsync per commit) or normal (survives kill -9, not power loss) (default: ${DEFAULT-VALUE}).")
    private Durability durability;

    @Option(names = "--max-batch", defaultValue = "" + MessagesConfig.MAX_BATCH,
        description = "Most messages per group commit; 1 turns group commit off (default: ${DEFAULT-VALUE}).")
    private int maxBatch;

    /** 127.0.0.1:8081, beside the shortener's 8080. */
    @Override
    InetSocketAddress defaultBind() {
        return new InetSocketAddress("127.0.0.1", 8081);
    }

    @Override
    App open(InetSocketAddress bind, PrometheusRegistry metrics, PrintWriter out) {
        MessagesConfig config;
        try {
            config = new MessagesConfig(data, durability, maxBatch, Clock.systemUTC());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        MessagesApp app = MessagesApp.open(config, metrics);
        out.println("hotpath: messages in " + data.resolve("messages.db") + " (durability " + durability.name().toLowerCase()
            + "; POST /message-fast answers 503 without --stream, which is not built yet)");
        return app;
    }
}
