package dev.hotpath.apps.messages;

import dev.hotpath.apps.App;
import dev.hotpath.apps.messages.internal.MessageStore;
import dev.hotpath.apps.messages.internal.MessageStream;
import dev.hotpath.apps.messages.internal.MessagesSchema;
import dev.hotpath.apps.messages.internal.MessagesService;
import dev.hotpath.apps.messages.internal.PostgresMessageStore;
import dev.hotpath.apps.messages.internal.SqliteMessageStore;
import dev.hotpath.http.AsyncHandler;
import dev.hotpath.http.Handler;
import dev.hotpath.http.Method;
import dev.hotpath.http.MetricsEndpoint;
import dev.hotpath.http.Routes;
import dev.hotpath.store.DataDirLock;
import dev.hotpath.store.RedisConnections;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.sql.SQLException;

/**
 * The messages service of {@code docs/MESSAGES.md}. Direct path: a message is stored in SQLite (or
 * PostgreSQL, with {@link MessagesConfig#store()}) through the group-commit writer and answered
 * {@code 201} only after the commit (fsynced under {@code --durability full}, and always with
 * PostgreSQL) that holds it. Stream path (with a {@link StreamConfig}):
 * {@code POST /message-fast} answers {@code 202} once Redis holds the message, and a
 * {@link dev.hotpath.apps.messages.internal.StreamWorker} (in this process unless
 * {@link StreamConfig#worker()} is false, else {@link MessagesWorker}) stores it through the same
 * writer. Without a stream that route answers {@code 503 stream_unavailable}. Reads run on the event
 * loops with SQLite, on read threads of their own with PostgreSQL.
 *
 * <p>Opening locks the data directory with SQLite ({@link DataDirLock}: one serving process per
 * directory; {@link MessagesWorker} takes no lock; with PostgreSQL there is no directory, and any number
 * of servers may share the database), connects to Redis when there is a stream (it must answer), and
 * creates or migrates the schema. Close it after the server has drained: it stops the worker,
 * commits what is queued, then releases the database, Redis and the directory.
 */
public final class MessagesApp implements App {
    /**
     * Body limit of the create routes. The longest valid body, every character escaped as JSON allows
     * ({@code \ud83d\ude00} is 12 bytes for one character) and no added whitespace, is 13,568 bytes:
     * 8 KiB would refuse valid messages for their spelling, 16 KiB refuses none.
     */
    public static final int BODY_LIMIT_BYTES = 16 * 1024;

    private final DataDirLock lock;
    private final MessagesService service;
    private final RedisConnections redis;
    private final PrometheusRegistry registry;

    private MessagesApp(DataDirLock lock, MessagesService service, RedisConnections redis, PrometheusRegistry registry) {
        this.lock = lock;
        this.service = service;
        this.redis = redis;
        this.registry = registry;
        registry.register(service.metrics());
        if (redis != null) {
            registry.register(service.streamMetrics());
        }
    }

    /**
     * Opens the service on its data directory or database.
     *
     * @throws IllegalStateException when the directory is in use or the store cannot be opened
     */
    public static MessagesApp open(MessagesConfig config, PrometheusRegistry registry) {
        DataDirLock lock = config.dataDir() == null ? null : DataDirLock.acquire(config.dataDir());
        RedisConnections redis = null;
        try {
            if (config.stream() != null) {
                redis = connect(config.stream());
            }
            MessagesService service = new MessagesService(openStore(config), config.maxBatch(),
                MessagesService.QUEUE_CAPACITY, config.clock(), redis == null ? null : new MessageStream(redis));
            try {
                if (redis != null && config.stream().worker()) {
                    service.startWorker(redis.openPubSub(), config.stream().settings());
                }
            } catch (RuntimeException e) {
                service.close(); // its writer thread (not a daemon) and its checkpoints would outlive the failure
                throw e;
            }
            return new MessagesApp(lock, service, redis, registry);
        } catch (SQLException | RuntimeException e) {
            if (redis != null) {
                redis.close();
            }
            if (lock != null) {
                lock.close();
            }
            throw new IllegalStateException("cannot open " + where(config) + ": " + e.getMessage(), e);
        }
    }

    /** SQLite's {@code messages.db} in the data directory (created if missing), or the PostgreSQL database. */
    static MessageStore openStore(MessagesConfig config) {
        if (config.store() != null) {
            return PostgresMessageStore.open(config.store());
        }
        try {
            Files.createDirectories(config.dataDir());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return SqliteMessageStore.open(config.dataDir().resolve(MessagesSchema.FILE), config.durability());
    }

    /** Where {@code config} keeps messages, for errors and the start-up line (never a password). */
    public static String where(MessagesConfig config) {
        return config.store() != null ? "PostgreSQL " + config.store().user() + "@" + config.store().host() + ":"
            + config.store().port() + "/" + config.store().database()
            : config.dataDir().resolve(MessagesSchema.FILE).toString();
    }

    /** Connects to the stream's Redis, naming it when it does not answer. */
    static RedisConnections connect(StreamConfig stream) {
        try {
            return new RedisConnections(stream.redis());
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot connect to the stream's Redis at " + stream.redis().host() + ":"
                + stream.redis().port() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Routes routes() {
        return Routes.builder()
            .route(Method.POST, "/message", BODY_LIMIT_BYTES, (AsyncHandler) service::create)
            .route(Method.POST, "/message-fast", BODY_LIMIT_BYTES, service.streaming()
                ? (AsyncHandler) service::createStreamed : (Handler) service::createFast)
            .route(Method.GET, "/messages", Routes.DEFAULT_BODY_LIMIT, service.listRoute())
            .route(Method.GET, "/messages/{id}", Routes.DEFAULT_BODY_LIMIT, service.readRoute())
            .route(Method.GET, "/health", Routes.DEFAULT_BODY_LIMIT, service.healthRoute())
            .get("/ready", service::ready)
            .get("/metrics", new MetricsEndpoint(registry))
            .build();
    }

    @Override
    public void beginDrain() {
        service.beginDrain();
    }

    /**
     * Stops the stream worker, commits what is queued, closes the store and Redis, releases the data
     * directory.
     */
    @Override
    public void close() {
        registry.unregister(service.metrics());
        if (redis != null) {
            registry.unregister(service.streamMetrics());
        }
        service.close();
        if (redis != null) {
            redis.close();
        }
        if (lock != null) {
            lock.close();
        }
    }
}
