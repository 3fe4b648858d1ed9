package dev.hotpath.cli;

import dev.hotpath.apps.App;
import dev.hotpath.apps.shortener.ClusterConfig;
import dev.hotpath.apps.shortener.ClusterShortenerApp;
import dev.hotpath.apps.shortener.Role;
import dev.hotpath.apps.shortener.ShortenerApp;
import dev.hotpath.apps.shortener.ShortenerConfig;
import dev.hotpath.store.Durability;
import dev.hotpath.store.PostgresConfig;
import dev.hotpath.store.RedisConfig;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code hotpath serve shortener}: the URL shortener and its flags (docs/API.md, "Command line"). */
@Command(name = "shortener", mixinStandardHelpOptions = true,
    description = "The URL shortener on an embedded, fsynced SQLite store (the default app), or with --store a node"
        + " of the scale-out mode on PostgreSQL and Redis.")
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

    @Option(names = "--ui", defaultValue = "on",
        description = "on or off: the web page at / for creating, listing and deleting links (default: ${DEFAULT-VALUE}).")
    private String ui;

    @Option(names = "--store", description = "Scale-out mode: links in PostgreSQL, postgres://USER[:PASS]@HOST[:PORT]/DB"
        + " (PGPASSWORD is read too); see docs/SCALE-OUT.md.")
    private String store;

    @Option(names = "--cache", description = "Scale-out mode: the Redis all nodes share, redis://HOST[:PORT][/DB].")
    private String cache;

    @Option(names = "--role", defaultValue = "all", description = "Scale-out mode: all, read or write (default: ${DEFAULT-VALUE}).")
    private String role;

    @Option(names = "--local-cache-size", defaultValue = "" + ClusterConfig.DEFAULT_LOCAL_CACHE_SIZE,
        description = "Scale-out mode: links kept in this node's memory, 0 for none (default: ${DEFAULT-VALUE}).")
    private int localCacheSize;

    @Option(names = "--local-cache-ttl", defaultValue = "60s", converter = Converters.Span.class,
        description = "Scale-out mode: how long this node keeps a link before asking again (default: ${DEFAULT-VALUE}).")
    private Duration localCacheTtl;

    @Option(names = "--visit-fold-interval", defaultValue = "60s", converter = Converters.Span.class,
        description = "Scale-out mode: how often this node folds the logged visits into links.visits, how late SQL readers see them (default: ${DEFAULT-VALUE}).")
    private Duration visitFoldInterval;

    @Option(names = "--store-timeout", defaultValue = "2s", converter = Converters.Span.class,
        description = "Scale-out mode: the longest wait for a PostgreSQL statement or connection, at least 1s (default: ${DEFAULT-VALUE}).")
    private Duration storeTimeout;

    @Option(names = "--cache-timeout", defaultValue = "20ms", converter = Converters.Span.class,
        description = "Scale-out mode: a Redis command not answered within this is given up (default: ${DEFAULT-VALUE}).")
    private Duration cacheTimeout;

    @Option(names = "--pool-size", defaultValue = "" + PostgresConfig.DEFAULT_POOL_SIZE,
        description = "Scale-out mode: PostgreSQL read connections and look-up threads (default: ${DEFAULT-VALUE}).")
    private int poolSize;

    @Option(names = "--key-file", defaultValue = "./api-key",
        description = "Scale-out mode: where a node that creates the first API key writes it (default: ${DEFAULT-VALUE}).")
    private Path keyFile;

    /** Flags of one mode only: given in the other, they are refused rather than ignored. */
    private static final List<String> EMBEDDED_ONLY = List.of("--data", "--durability", "--max-links");
    private static final List<String> SCALE_OUT_ONLY = List.of("--cache", "--role", "--local-cache-size",
        "--local-cache-ttl", "--visit-fold-interval", "--store-timeout", "--cache-timeout", "--pool-size",
        "--key-file");

    @Override
    App open(InetSocketAddress bind, PrometheusRegistry metrics, Invocation invocation) {
        List<String> misplaced = (store != null ? EMBEDDED_ONLY : SCALE_OUT_ONLY).stream()
            .filter(invocation.given()).toList();
        if (!misplaced.isEmpty()) {
            throw new InvalidFlags(String.join(", ", misplaced)
                + (store != null ? " belongs to the embedded mode; with --store the links live in PostgreSQL"
                    : " belongs to the scale-out mode: add --store postgres://..."));
        }
        PrintWriter out = invocation.out();
        App app = store != null ? openScaleOut(bind, metrics, invocation) : openEmbedded(bind, metrics, invocation);
        if (ui.equals("on")) {
            out.println("hotpath: a web page for the links is at / of the address below (paste the API key there;"
                + " --ui off turns it off)");
        }
        return app;
    }

    private App openScaleOut(InetSocketAddress bind, PrometheusRegistry metrics, Invocation invocation) {
        PrintWriter out = invocation.out();
        ClusterConfig config;
        try {
            config = new ClusterConfig(toConfig(bind, invocation.err()),
                PostgresConfig.parse(store, System::getenv).withPoolSize(poolSize).withStatementTimeout(storeTimeout)
                    .withConnectTimeout(storeTimeout),
                cache == null ? null : RedisConfig.parse(cache).withCommandTimeout(cacheTimeout), Role.parse(role),
                localCacheSize, localCacheTtl, keyFile, visitFoldInterval);
        } catch (IllegalArgumentException e) {
            throw new InvalidFlags(e.getMessage());
        }
        ClusterShortenerApp app = ClusterShortenerApp.open(config, metrics);
        if (app.createdKeyFile() != null) {
            out.println("hotpath: new database; its first API key is in " + app.createdKeyFile()
                + " (readable by you only; shown nowhere else)");
        } else if (config.role().servesApi()) {
            out.println("hotpath: API keys are managed with: hotpath keys --store postgres://...");
        }
        out.println("hotpath: " + config.role().flag() + " node on " + config.store().host() + ":"
            + config.store().port() + "/" + config.store().database()
            + (config.cache() == null ? ", no Redis" : ", Redis " + config.cache().host() + ":" + config.cache().port()));
        return app;
    }

    private App openEmbedded(InetSocketAddress bind, PrometheusRegistry metrics, Invocation invocation) {
        PrintWriter out = invocation.out();
        ShortenerApp app = ShortenerApp.open(toConfig(bind, invocation.err()), metrics);
        if (app.createdKeyFile() != null) {
            out.println("hotpath: new data dir; its first API key is in " + app.createdKeyFile()
                + " (readable by you only; shown nowhere else)");
        } else {
            out.println("hotpath: API keys of " + data + " are managed with: hotpath keys --data " + data);
        }
        out.println("hotpath: " + app.links() + " links loaded");
        return app;
    }

    /** The embedded config of these flags; its warnings go to {@code err}. */
    private ShortenerConfig toConfig(InetSocketAddress bind, PrintWriter err) {
        if (durability == Durability.NONE) {
            err.println("hotpath: WARNING --durability none: links live in memory only and are lost"
                + " when the process stops. For benchmarks only.");
        }
        if (!ui.equals("on") && !ui.equals("off")) {
            throw new InvalidFlags("--ui must be on or off, was " + ui);
        }
        String base = publicBase != null ? publicBase : "http://" + bind.getHostString() + ":" + bind.getPort();
        if (!base.startsWith("http://") && !base.startsWith("https://")) {
            throw new InvalidFlags("--public-base must start with http:// or https://");
        }
        try {
            return new ShortenerConfig(data, base, codes, durability, maxLinks, maxBatch, redirectStatus,
                deniedHosts(), metricsToken, ui.equals("on"), Clock.systemUTC());
        } catch (IllegalArgumentException e) {
            throw new InvalidFlags(e.getMessage());
        }
    }

    private Set<String> deniedHosts() {
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
            throw new InvalidFlags("cannot read --deny-hosts " + denyHosts + ": " + e.getMessage());
        }
    }
}
