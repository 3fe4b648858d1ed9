package dev.hotpath.apps.messages;

import dev.hotpath.apps.messages.internal.MessageStore;
import dev.hotpath.apps.messages.internal.Refusal;
import dev.hotpath.apps.messages.internal.StreamMetrics;
import dev.hotpath.apps.messages.internal.StreamWorker;
import dev.hotpath.http.MetricsEndpoint;
import dev.hotpath.http.Request;
import dev.hotpath.http.Response;
import dev.hotpath.http.Routes;
import dev.hotpath.store.GroupCommitConfig;
import dev.hotpath.store.GroupCommitWriter;
import dev.hotpath.store.RedisConnections;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.sql.SQLException;

/**
 * The stream worker alone ({@code hotpath messages worker}): stores the stream's entries through a
 * group-commit writer of its own, into the data directory's {@code messages.db} beside a
 * {@code hotpath serve messages --worker off} on the same directory, or into the PostgreSQL database
 * the servers use.
 *
 * <p>It takes no {@link dev.hotpath.store.DataDirLock}: the lock stays the serving process's (one
 * server per directory), and the worker is one more SQLite writer, which WAL and the busy timeout
 * serialise with the server's writer. Nothing of the worker lives in memory but its batch in hand,
 * so two of them on one directory (or database) would be two consumers of the group, not a conflict.
 *
 * <p>It serves no HTTP of its own; {@link #routes} are for a small server beside it
 * ({@code --metrics-bind}): {@code /metrics} (the stream's metrics), {@code /health} and {@code /ready}.
 */
public final class MessagesWorker implements AutoCloseable {
    private static final Response HEALTHY = Response.json(200, "{\"status\":\"ok\"}");
    private static final Response STOPPED = Response.json(503,
        "{\"status\":\"degraded\",\"error\":\"the stream worker stopped\"}");
    private static final Response READY = Response.json(200, "{\"status\":\"ready\"}");

    private final RedisConnections redis;
    private final MessageStore store;
    private final GroupCommitWriter writer;
    private final StreamMetrics metrics = new StreamMetrics();
    private final StreamWorker worker;
    private volatile boolean stopping;

    private MessagesWorker(RedisConnections redis, MessageStore store, GroupCommitWriter writer, StreamConfig stream) {
        this.redis = redis;
        this.store = store;
        this.writer = writer;
        this.worker = new StreamWorker(redis.openPubSub(), writer, store, metrics, stream.settings());
    }

    /**
     * Opens the store (its schema created or migrated), connects to Redis and starts the worker.
     *
     * @throws IllegalStateException when the store cannot be opened or Redis does not answer
     */
    public static MessagesWorker open(MessagesConfig config) {
        if (config.stream() == null) {
            throw new IllegalArgumentException("the worker needs a stream");
        }
        RedisConnections redis = MessagesApp.connect(config.stream());
        MessageStore store = null;
        GroupCommitWriter writer = null;
        try {
            store = MessagesApp.openStore(config);
            writer = store.openWriter(GroupCommitConfig.named("messages-stream-writer").withMaxBatch(config.maxBatch()));
            return new MessagesWorker(redis, store, writer, config.stream());
        } catch (SQLException | RuntimeException e) {
            if (writer != null) {
                writer.close();
            }
            if (store != null) {
                store.close();
            }
            redis.close();
            throw new IllegalStateException("cannot open " + MessagesApp.where(config) + ": " + e.getMessage(), e);
        }
    }

    /** The worker's counters: stored, dead letters, and the stream as last measured. */
    public StreamMetrics metrics() {
        return metrics;
    }

    /** The worker's consumer name in the group. */
    public String consumer() {
        return worker.consumer();
    }

    /**
     * {@code /metrics} from {@code registry}, which gets the stream's metrics; {@code /health}: 200 while
     * the worker's thread runs; {@code /ready}: 200 until {@link #close()} begins, then
     * {@code 503 not_ready}. None of them waits on Redis or the store.
     */
    public Routes routes(PrometheusRegistry registry) {
        registry.register(metrics);
        return Routes.builder()
            .get("/metrics", new MetricsEndpoint(registry))
            .get("/health", (Request request) -> worker.running() ? HEALTHY : STOPPED)
            .get("/ready", (Request request) -> stopping ? Refusal.NOT_READY.response() : READY)
            .build();
    }

    /** Stops the worker, commits what is queued, closes the store and Redis. */
    @Override
    public void close() {
        stopping = true;
        worker.close();
        writer.close();
        store.close();
        redis.close();
    }
}
