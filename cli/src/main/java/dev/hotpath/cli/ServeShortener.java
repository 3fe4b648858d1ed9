package dev.hotpath.cli;

import dev.hotpath.apps.App;
import dev.hotpath.apps.shortener.ShortenerApp;
import dev.hotpath.apps.shortener.ShortenerConfig;
import dev.hotpath.store.Durability;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code hotpath serve shortener}: the URL shortener and its flags (docs/API.md, "Command line"). */
@Command(name = "shortener", mixinStandardHelpOptions = true,
    description = "The URL shortener on an embedded, fsynced SQLite store (the default app).")
final class ServeShortener extends AppCommand {
    @Option(names = "--data", defaultValue = "./data", description = "Data directory (default: ${DEFAULT-VALUE}).")
    private Path data;

    @Option(names = "--public-base", description = "Base of short_url (default: http://<bind>).")
    private String publicBase;

    @Option(names = "--codes", defaultValue = "scrambled", description = "scrambled or sequential (default: ${DEFAULT-VALUE}).")
    private String codes;

    @Option(names = "--durability", defaultValue = "full", converter = Converters.DurabilityMode.class,
        description = "full (fsync per commit), normal (survives kill -9, not power loss) or none (memory only) (default: ${DEFAULT-VALUE}).")
    private Durability durability;

    @Option(names = "--max-links", defaultValue = "" + ShortenerConfig.MAX_LINKS,
        description = "Most links ever created (default: ${DEFAULT-VALUE}).")
    private int maxLinks;

    @Option(names = "--max-batch", defaultValue = "" + ShortenerConfig.MAX_BATCH,
        description = "Most writes per group commit; 1 turns group commit off (default: ${DEFAULT-VALUE}).")
    private int maxBatch;

    @Option(names = "--redirect-status", defaultValue = "302", description = "301, 302, 307 or 308 (default: ${DEFAULT-VALUE}).")
    private int redirectStatus;

    @Option(names = "--deny-hosts", description = "File of hosts refused as targets: one host or *.domain per line.")
    private Path denyHosts;

    @Option(names = "--metrics-token", description = "Require this bearer token on /metrics.")
    private String metricsToken;

    @Override
    App open(InetSocketAddress bind, PrometheusRegistry metrics, PrintWriter out) {
        ShortenerApp app = ShortenerApp.open(toConfig(bind), metrics);
        if (app.createdKeyFile() != null) {
            out.println("hotpath: new data dir; its first API key is in " + app.createdKeyFile()
                + " (readable by you only; shown nowhere else)");
        } else {
            out.println("hotpath: API keys of " + data + " are managed with: hotpath keys --data " + data);
        }
        out.println("hotpath: " + app.links() + " links loaded");
        return app;
    }

    private ShortenerConfig toConfig(InetSocketAddress bind) {
        CommandLine commandLine = spec.commandLine();
        if (durability == Durability.NONE) {
            commandLine.getErr().println("hotpath: WARNING --durability none: links live in memory only and are lost"
                + " when the process stops. For benchmarks only.");
        }
        String base = publicBase != null ? publicBase : "http://" + bind.getHostString() + ":" + bind.getPort();
        if (!base.startsWith("http://") && !base.startsWith("https://")) {
            throw new CommandLine.ParameterException(commandLine, "--public-base must start with http:// or https://");
        }
        try {
            return new ShortenerConfig(data, base, codes, durability, maxLinks, maxBatch, redirectStatus,
                deniedHosts(commandLine), metricsToken, Clock.systemUTC());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(commandLine, e.getMessage());
        }
    }

    private Set<String> deniedHosts(CommandLine commandLine) {
        if (denyHosts == null) {
            return Set.of();
        }
        try {
            Set<String> hosts = new HashSet<>();
            for (String line : Files.readAllLines(denyHosts)) {
                String host = line.strip().toLowerCase(Locale.ROOT);
                if (!host.isEmpty() && !host.startsWith("#")) {
                    hosts.add(host);
                }
            }
            return hosts;
        } catch (IOException e) {
            throw new CommandLine.ParameterException(commandLine, "cannot read --deny-hosts " + denyHosts + ": " + e.getMessage());
        }
    }
}
