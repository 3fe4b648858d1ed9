package dev.hotpath.apps.shortener;

import dev.hotpath.apps.App;
import dev.hotpath.apps.shortener.internal.ClusterImport;
import dev.hotpath.apps.shortener.internal.ClusterMetrics;
import dev.hotpath.apps.shortener.internal.ClusterShortener;
import dev.hotpath.http.Routes;
import dev.hotpath.store.PostgresConfig;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.file.Path;

/**
 * A node of the scale-out shortener (docs/SCALE-OUT.md): the same API as {@link ShortenerApp}, on
 * PostgreSQL and Redis instead of a data directory, so any number of nodes can serve one set of links
 * behind a load balancer. Close it after the server has drained: it flushes visit counts and commits
 * what is queued.
 */
public final class ClusterShortenerApp implements App {
    private final ClusterConfig config;
    private final ClusterShortener node;
    private final PrometheusRegistry metrics;
    private final ClusterMetrics collector;

    private ClusterShortenerApp(ClusterConfig config, PrometheusRegistry metrics) {
        this.config = config;
        this.node = ClusterShortener.open(config);
        this.metrics = metrics;
        this.collector = node.metrics();
        metrics.register(collector);
    }

    /**
     * Connects, migrates (a write or {@code all} node) and loads what the node needs.
     *
     * @throws IllegalStateException with the reason the node cannot start
     */
    public static ClusterShortenerApp open(ClusterConfig config, PrometheusRegistry metrics) {
        return new ClusterShortenerApp(config, metrics);
    }

    /**
     * Applies the schema migrations and creates the code secret of {@code --codes} if there is none,
     * then returns: {@code hotpath shortener migrate}.
     */
    public static void migrate(PostgresConfig store, String codes) {
        ClusterShortener.migrate(store, codes);
    }

    /**
     * Moves the embedded store of {@code dataDir} into the empty database of {@code store}, keeping
     * every code: {@code hotpath shortener import}. Returns how many links and keys moved.
     *
     * @throws IllegalStateException when the directory cannot be opened or the database holds links
     */
    public static Imported importEmbedded(Path dataDir, PostgresConfig store) {
        return ClusterImport.run(dataDir, store);
    }

    /** What {@link #importEmbedded} moved. */
    public record Imported(int links, int keys) {
    }

    /** Where this start wrote a new API key (the key table was empty), or null. */
    public Path createdKeyFile() {
        return node.createdKeyFile();
    }

    @Override
    public Routes routes() {
        return node.routes(Routes.builder(), ShortenerApp.BULK_BODY_BYTES)
            .get("/metrics", ShortenerApp.metricsEndpoint(metrics, config.common().metricsToken()))
            .build();
    }

    @Override
    public void beginDrain() {
        node.beginDrain();
    }

    @Override
    public void close() {
        metrics.unregister(collector);
        node.close();
    }
}
