package dev.hotpath.apps.shortener.internal;

import dev.hotpath.apps.shortener.ApiKeys;
import dev.hotpath.apps.shortener.ClusterConfig;
import dev.hotpath.apps.shortener.PostgresApiKeys;
import dev.hotpath.apps.shortener.ShortenerConfig;
import dev.hotpath.http.AsyncHandler;
import dev.hotpath.http.DirectHandler;
import dev.hotpath.http.Handler;
import dev.hotpath.http.Method;
import dev.hotpath.http.Request;
import dev.hotpath.http.Response;
import dev.hotpath.http.Routes;
import dev.hotpath.store.GroupCommitConfig;
import dev.hotpath.store.GroupCommitWriter;
import dev.hotpath.store.Migrations;
import dev.hotpath.store.PostgresConfig;
import dev.hotpath.store.PostgresDatabase;
import dev.hotpath.store.RedisConnections;
import dev.hotpath.http.Deferred;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.ObjLongConsumer;

/**
 * One node of the scale-out shortener: PostgreSQL as the source of truth, Redis (optional) as the
 * cache all nodes share, a table of links of its own, and the role it plays. Opening it connects,
 * migrates the schema (write and {@code all} nodes), loads the code secret and the keys, and starts
 * the background work: visit flushes every second and folds every {@code --visit-fold-interval}, key
 * refreshes every {@value #KEY_REFRESH_SECONDS} s, a readiness probe every second, and the Redis probe
 * while the breaker is open.
 */
public final class ClusterShortener implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ClusterShortener.class.getName());
    /** Where the migrations of the links schema are, on the class path. */
    public static final String MIGRATIONS = "db/migration/shortener";
    private static final long KEY_REFRESH_SECONDS = 5;
    /**
     * How long stopping waits for a background task under way: it was interrupted, and only a flush
     * offering its write, or a key refresh or reachability check on a hung PostgreSQL, can last.
     */
    private static final long BACKGROUND_STOP_SECONDS = 2;
    private static final Duration NEGATIVE_TTL = Duration.ofSeconds(2);
    private static final Duration REDIS_TTL = Duration.ofMinutes(10);
    /** Look-ups waiting for a PostgreSQL connection at most; beyond it a miss answers 503. */
    private static final int LOOKUP_QUEUE = 4096;
    private static final int WRITE_QUEUE = 64 * 1024;
    private static final Response OK = Response.of(200, "text/plain", "ok".getBytes(StandardCharsets.US_ASCII));

    private final ClusterConfig config;
    private final PostgresDatabase database;
    private final RedisConnections redisConnections;
    private final RedisLinks redis;
    private final ScheduledExecutorService background;
    private final ScheduledExecutorService redisProbe;
    private final LookupExecutor executor;
    private final LocalLinks local;
    private final IdBlocks idBlocks;
    private final GroupCommitWriter writer;
    private final PostgresLinkWrites linkWrites;
    private final VisitCounts visits;
    private final PostgresApiKeys keys;
    private final QrCodes qrCodes;
    private final ClusterReads reads;
    private final ClusterWrites writes;
    private final Path createdKeyFile;
    private final Response wrongRole;
    private volatile boolean postgresReachable = true;
    private volatile boolean draining;

    private ClusterShortener(ClusterConfig config, PostgresDatabase database) throws SQLException {
        this.config = config;
        this.database = database;
        ShortenerConfig common = config.common();
        boolean writes = config.role().servesApi();
        if (writes) {
            Migrations.apply(database.reads(), "shortener", MIGRATIONS);
        } else {
            requireCurrentSchema(database);
        }
        CodeScheme codes = ClusterMeta.codeScheme(database.reads(), common.codes(), writes);
        this.keys = PostgresApiKeys.open(database.reads());
        this.createdKeyFile = writes ? createFirstKey(database, config) : null;
        if (createdKeyFile != null) {
            keys.refresh();
        }
        PostgresLinks postgres = new PostgresLinks(database.reads());
        long highestId = postgres.highestAllocatedId();
        this.redisConnections = config.cache() == null ? null : new RedisConnections(config.cache());
        this.background = Executors.newScheduledThreadPool(2,
            Thread.ofPlatform().name("shortener-cluster-", 0).daemon(true).factory());
        // Its own thread: the background ones may wait on a hung PostgreSQL for seconds.
        this.redisProbe = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("shortener-redis-probe").daemon(true).factory());
        this.executor = new LookupExecutor(config.store().poolSize(), LOOKUP_QUEUE, config.store().statementTimeout());
        this.visits = new VisitCounts(this::takeCachedVisits); // the table is made next, and made for it
        this.local = new LocalLinks(config.localCacheSize(), config.localCacheTtl(), NEGATIVE_TTL, System::nanoTime,
            visits::departed);
        IdBound bound = new IdBound(postgres, executor, highestId);
        this.idBlocks = new IdBlocks(bound);
        this.linkWrites = new PostgresLinkWrites(idBlocks, visits, common.clock());
        try {
            this.redis = redisConnections == null ? null
                : new RedisLinks(redisConnections, REDIS_TTL, common.redirectStatus(), redisProbe, local::invalidate,
                    local::invalidateAll);
        } catch (RuntimeException e) {
            background.shutdownNow();
            redisProbe.shutdownNow();
            executor.close();
            redisConnections.close();
            throw e;
        }
        this.writer = new GroupCommitWriter(database::openWriter, GroupCommitConfig.named("shortener-writer")
            .withQueueCapacity(WRITE_QUEUE).withMaxBatch(common.maxBatch())
            .withAcknowledgements(Deferred::completeTogether));
        LinkKeys linkKeys = new LinkKeys(codes, common.publicBase());
        ApiKeyAuth auth = new ApiKeyAuth(keys);
        this.qrCodes = new QrCodes(common.publicBase()); // its thread starts with the first drawing
        this.reads = new ClusterReads(linkKeys, local, redis, postgres, executor, bound, visits,
            this::flushAndFoldVisitsThen, auth, qrCodes, common.clock(), common.redirectStatus());
        this.writes = new ClusterWrites(writer, linkWrites, linkKeys, local, redis, auth,
            new LinkRequests(codes, common.deniedHosts(), common.clock()), common.clock(), common.redirectStatus());
        this.wrongRole = Errors.error(403, "wrong_role", "this node runs --role " + config.role().flag()
            + " and serves redirects only; send API requests to a write node");
        background.scheduleWithFixedDelay(this::flushVisits, 1, 1, TimeUnit.SECONDS);
        long foldMillis = config.visitFoldInterval().toMillis();
        background.scheduleWithFixedDelay(() -> writer.offer(linkWrites.foldVisits(() -> { })), foldMillis,
            foldMillis, TimeUnit.MILLISECONDS);
        background.scheduleWithFixedDelay(this::refreshKeys, KEY_REFRESH_SECONDS, KEY_REFRESH_SECONDS,
            TimeUnit.SECONDS);
        background.scheduleWithFixedDelay(() -> postgresReachable = database.reachable(), 1, 1, TimeUnit.SECONDS);
    }

    /**
     * Connects to PostgreSQL (and Redis), migrates and loads what the node needs.
     *
     * @throws IllegalStateException with the reason this node cannot start
     */
    public static ClusterShortener open(ClusterConfig config) {
        PostgresDatabase database = new PostgresDatabase(config.store());
        try {
            return new ClusterShortener(config, database);
        } catch (SQLException e) {
            database.close();
            throw new IllegalStateException("cannot open the link store: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
    }

    /**
     * A read node never migrates, and one of this release writes tables an older schema lacks (its
     * visits go to {@code visit_log}): it starts only on the schema of its own release.
     */
    private static void requireCurrentSchema(PostgresDatabase database) {
        try {
            Migrations.requireCurrent(database.reads(), "shortener", MIGRATIONS);
        } catch (Migrations.SchemaBehind e) {
            throw new IllegalStateException(e.getMessage() + ": start a write node of this release first, or run"
                + " hotpath shortener migrate", e);
        }
    }

    /** {@code hotpath shortener migrate}: the schema up to date and the code secret created. */
    public static void migrate(PostgresConfig store, String codes) {
        try (PostgresDatabase database = new PostgresDatabase(store)) {
            Migrations.apply(database.reads(), "shortener", MIGRATIONS);
            ClusterMeta.codeScheme(database.reads(), codes, true);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot migrate: " + e.getMessage(), e);
        }
    }

    /** A first key for an empty key table, written to the key file; null when there are keys already. */
    private static Path createFirstKey(PostgresDatabase database, ClusterConfig config) throws SQLException {
        ApiKeys.Created created = PostgresApiKeys.createFirst(database.reads(), config.common().clock(),
            key -> ApiKeys.writeSecretFileAt(config.keyFile(), key.secret()));
        return created == null ? null : config.keyFile();
    }

    /** Where this start wrote a new API key (the key table was empty), or null. */
    public Path createdKeyFile() {
        return createdKeyFile;
    }

    /**
     * Every route but {@code /metrics}; API routes answer 403 {@code wrong_role} on a read node, except
     * the public ones a redirect's reader may ask for (the QR code, the OpenAPI document, the web page).
     */
    public Routes.Builder routes(Routes.Builder routes, int bulkBodyBytes) {
        boolean api = config.role().servesApi();
        AsyncHandler create = api ? writes::create : refused();
        routes.route(Method.POST, "/api/links", Routes.DEFAULT_BODY_LIMIT, create)
            .route(Method.POST, "/api/shorten", Routes.DEFAULT_BODY_LIMIT, create)
            .route(Method.POST, "/shorten", Routes.DEFAULT_BODY_LIMIT, create)
            .route(Method.POST, "/api/links/bulk", bulkBodyBytes, api ? (AsyncHandler) writes::bulkCreate : refused())
            .route(Method.GET, "/api/links", Routes.DEFAULT_BODY_LIMIT, api ? (AsyncHandler) reads::list : refused())
            .route(Method.GET, "/api/links/{code}", Routes.DEFAULT_BODY_LIMIT,
                api ? (AsyncHandler) reads::read : refused())
            .route(Method.DELETE, "/api/links/{code}", Routes.DEFAULT_BODY_LIMIT,
                api ? (AsyncHandler) writes::delete : refused())
            .route(Method.GET, "/api/stats", Routes.DEFAULT_BODY_LIMIT, api ? (AsyncHandler) reads::stats : refused())
            .get("/api/links/{code}/qr.svg", (AsyncHandler) reads::qr)
            .get("/health", (Handler) request -> OK)
            .get("/ready", this::ready)
            .route(Method.GET, "/{code}", Routes.DEFAULT_BODY_LIMIT,
                (DirectHandler) (request, responder) -> reads.resolve(request, responder, true))
            .route(Method.HEAD, "/{code}", Routes.DEFAULT_BODY_LIMIT,
                (DirectHandler) (request, responder) -> reads.resolve(request, responder, false));
        return WebPage.addTo(routes, config.common().webPage());
    }

    private AsyncHandler refused() {
        return (request, response) -> response.complete(wrongRole);
    }

    /**
     * 200 when the node can serve its role: a write node needs PostgreSQL, a read node PostgreSQL or
     * Redis (it answers from Redis what it has not cached); 503 while draining.
     */
    private Response ready(Request request) {
        if (draining) {
            return Errors.retryLater("not_ready", "the server is draining");
        }
        boolean redisUp = redis != null && redis.breaker().closed();
        boolean canServe = postgresReachable || (!config.role().servesApi() && redisUp);
        return canServe ? OK : Errors.retryLater("not_ready", "PostgreSQL cannot be reached");
    }

    /** What {@link VisitCounts} takes at each flush: the visits counted in the node's table. */
    private void takeCachedVisits(ObjLongConsumer<CachedLink> taken) {
        local.takeVisits(taken);
    }

    /** The once-a-second flush: nothing to write (a read node at rest) writes nothing. */
    private void flushVisits() {
        if (visits.counted() || linkWrites.hasUnsentVisits()) {
            writer.offer(linkWrites.logVisits(() -> { }));
        }
    }

    /** Logs this node's visits and folds every node's, then runs {@code then}: at once when the writer is full. */
    private void flushAndFoldVisitsThen(Runnable then) {
        if (!writer.offer(linkWrites.logVisits(() -> { })) || !writer.offer(linkWrites.foldVisits(then))) {
            then.run();
        }
    }

    private void refreshKeys() {
        try {
            keys.refresh();
        } catch (SQLException e) {
            LOG.log(System.Logger.Level.DEBUG, "API keys not refreshed; the ones held stay in force", e);
        }
    }

    /** Lets a flush already running offer its write first, so that the last flush comes after it. */
    private void awaitBackgroundWork() {
        try {
            if (!background.awaitTermination(BACKGROUND_STOP_SECONDS, TimeUnit.SECONDS)) {
                LOG.log(System.Logger.Level.WARNING, "background work still running as the node stops");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** From now on {@code /ready} answers 503. */
    public void beginDrain() {
        draining = true;
    }

    /** The node's counters, read at scrape time. */
    public ClusterMetrics metrics() {
        return new ClusterMetrics(reads, redis, database, executor, idBlocks, writer, local);
    }

    /**
     * Flushes visits, commits what is queued, then disconnects. The last flush is offered whatever this
     * thread sees: whether a flush in flight committed is known only on the writer's thread, where the
     * last one decides what it sends (nothing, when all is stored).
     */
    @Override
    public void close() {
        background.shutdownNow();
        redisProbe.shutdownNow();
        awaitBackgroundWork();
        if (!writer.offer(linkWrites.logLastVisits())) {
            LOG.log(System.Logger.Level.WARNING, "the write queue is full as the node stops: the visits it"
                + " counted since its last stored flush are lost");
        }
        writer.close();
        executor.close();
        qrCodes.close();
        if (redis != null) {
            redis.close();
            redisConnections.close();
        }
        database.close();
    }
}
