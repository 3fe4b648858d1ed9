package dev.hotpath.apps.messages;

import dev.hotpath.apps.App;
import dev.hotpath.apps.messages.internal.MessagesSchema;
import dev.hotpath.apps.messages.internal.MessagesService;
import dev.hotpath.http.AsyncHandler;
import dev.hotpath.http.Method;
import dev.hotpath.http.MetricsEndpoint;
import dev.hotpath.http.Routes;
import dev.hotpath.store.DataDirLock;
import dev.hotpath.store.SqliteDatabase;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The messages service of {@code docs/MESSAGES.md}, direct path: a message is stored in SQLite through
 * the group-commit writer and answered {@code 201} only after the commit (fsynced under
 * {@code --durability full}) that holds it. Reads run on the event loops. The stream path
 * ({@code POST /message-fast} through a stream and a worker) is not built: that route answers
 * {@code 503 stream_unavailable}.
 *
 * <p>Opening locks the data directory ({@link DataDirLock}: one process per directory) and creates the
 * schema if missing. Close it after the server has drained: it commits what is queued, then releases
 * the database and the directory.
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
    private final PrometheusRegistry registry;

    private MessagesApp(DataDirLock lock, MessagesService service, PrometheusRegistry registry) {
        this.lock = lock;
        this.service = service;
        this.registry = registry;
        registry.register(service.metrics());
    }

    /**
     * Opens the service on its data directory.
     *
     * @throws IllegalStateException when the directory is in use or its database cannot be opened
     */
    public static MessagesApp open(MessagesConfig config, PrometheusRegistry registry) {
        DataDirLock lock = DataDirLock.acquire(config.dataDir());
        Path database = config.dataDir().resolve(MessagesSchema.FILE);
        try {
            Connection db = SqliteDatabase.openForWriting(database, config.durability());
            try {
                MessagesSchema.create(db);
            } catch (SQLException e) {
                db.close();
                throw e;
            }
            return new MessagesApp(lock, new MessagesService(database, db, config.maxBatch(),
                MessagesService.QUEUE_CAPACITY, config.clock()), registry);
        } catch (SQLException | RuntimeException e) {
            lock.close();
            throw new IllegalStateException("cannot open " + database + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Routes routes() {
        return Routes.builder()
            .route(Method.POST, "/message", BODY_LIMIT_BYTES, (AsyncHandler) service::create)
            .post("/message-fast", BODY_LIMIT_BYTES, service::createFast)
            .get("/messages", service::list)
            .get("/messages/{id}", service::read)
            .get("/health", service::health)
            .get("/ready", service::ready)
            .get("/metrics", new MetricsEndpoint(registry))
            .build();
    }

    @Override
    public void beginDrain() {
        service.beginDrain();
    }

    /** Commits what is queued, closes the database, releases the data directory. */
    @Override
    public void close() {
        registry.unregister(service.metrics());
        service.close();
        lock.close();
    }
}
