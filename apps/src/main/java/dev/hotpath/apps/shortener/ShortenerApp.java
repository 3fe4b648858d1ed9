package dev.hotpath.apps.shortener;

import dev.hotpath.apps.App;
import dev.hotpath.apps.shortener.internal.ShortenerMetrics;
import dev.hotpath.apps.shortener.internal.ShortenerService;
import dev.hotpath.apps.shortener.internal.SqliteLinkStore;
import dev.hotpath.apps.shortener.internal.WebPage;
import dev.hotpath.http.AsyncHandler;
import dev.hotpath.http.BearerToken;
import dev.hotpath.http.DirectHandler;
import dev.hotpath.http.Handler;
import dev.hotpath.http.HeaderName;
import dev.hotpath.http.Method;
import dev.hotpath.http.MetricsEndpoint;
import dev.hotpath.http.Response;
import dev.hotpath.http.Routes;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The URL shortener of {@code docs/API.md}: opens (and verifies) the store of a data
 * directory, creates the first API key of a new one, and gives the engine its routes. Close it after
 * the server has drained: it persists visit counts, commits what is queued and releases the directory.
 *
 * <p>The links are stored in SQLite ({@link SqliteLinkStore}); everything behind the routes sees only
 * the {@code LinkStore} interface.
 */
public final class ShortenerApp implements App {
    /** Body limit of the bulk endpoint; single creates keep the engine default. */
    public static final int BULK_BODY_BYTES = 4 * 1024 * 1024;

    private final ShortenerConfig config;
    private final ShortenerService service;
    private final PrometheusRegistry metrics;
    private final ShortenerMetrics collector;
    private final ScheduledExecutorService visitFlusher;
    private final Path createdKeyFile;

    private ShortenerApp(ShortenerConfig config, PrometheusRegistry metrics) {
        this.config = config;
        this.metrics = metrics;
        boolean firstStart = ApiKeys.list(config.dataDir()).isEmpty();
        this.service = new ShortenerService(config, SqliteLinkStore.open(new SqliteLinkStore.Settings(config.dataDir(),
            config.durability(), config.codes(), config.maxLinks(), config.maxBatch())));
        try {
            this.createdKeyFile = firstStart
                ? ApiKeys.writeSecretFile(config.dataDir(), ApiKeys.create(config.dataDir(), config.clock()).secret())
                : null;
            service.keysChanged();
        } catch (RuntimeException e) {
            service.close(); // the store is open: release its writer thread and the data directory
            throw e;
        }
        this.collector = new ShortenerMetrics(service);
        metrics.register(collector);
        this.visitFlusher = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform()
            .name("shortener-visits").daemon(true).unstarted(r));
        visitFlusher.scheduleAtFixedRate(service::flushVisits, 1, 1, TimeUnit.SECONDS);
    }

    /**
     * Opens the shortener on its data directory.
     *
     * @throws IllegalStateException when the directory is in use or its store fails verification
     */
    public static ShortenerApp open(ShortenerConfig config, PrometheusRegistry metrics) {
        return new ShortenerApp(config, metrics);
    }

    /** Where this start wrote a new API key (a new data directory), or null. */
    public Path createdKeyFile() {
        return createdKeyFile;
    }

    /** Live links. */
    public int links() {
        return service.links();
    }

    @Override
    public Routes routes() {
        Handler metricsEndpoint = metricsEndpoint(metrics, config.metricsToken());
        AsyncHandler create = service::create;
        return WebPage.addTo(Routes.builder(), config.webPage())
            .route(Method.POST, "/api/links", Routes.DEFAULT_BODY_LIMIT, create)
            .route(Method.POST, "/api/shorten", Routes.DEFAULT_BODY_LIMIT, create)
            .route(Method.POST, "/shorten", Routes.DEFAULT_BODY_LIMIT, create)
            .route(Method.POST, "/api/links/bulk", BULK_BODY_BYTES, (AsyncHandler) service::bulkCreate)
            .get("/api/links", service::list)
            .get("/api/links/{code}", service::read)
            .get("/api/links/{code}/qr.svg", (AsyncHandler) service::qr)
            .delete("/api/links/{code}", (AsyncHandler) service::delete)
            .get("/api/stats", service::stats)
            .get("/health", service::health)
            .get("/ready", service::ready)
            .get("/metrics", metricsEndpoint)
            .route(Method.GET, "/{code}", Routes.DEFAULT_BODY_LIMIT,
                (DirectHandler) (request, responder) -> service.resolve(request, responder, true))
            .route(Method.HEAD, "/{code}", Routes.DEFAULT_BODY_LIMIT,
                (DirectHandler) (request, responder) -> service.resolve(request, responder, false))
            .build();
    }

    /** {@code /metrics} of {@code metrics}, behind {@code token} (compared in constant time) unless it is null. */
    static Handler metricsEndpoint(PrometheusRegistry metrics, String token) {
        MetricsEndpoint endpoint = new MetricsEndpoint(metrics);
        if (token == null) {
            return endpoint;
        }
        byte[] expected = token.getBytes(StandardCharsets.ISO_8859_1);
        Response unauthorized = Response.builder(401).header("WWW-Authenticate", "Bearer")
            .header("Cache-Control", "no-store")
            .body("application/json", "{\"error\":\"unauthorized\",\"message\":\"a metrics token is required\"}"
                .getBytes(StandardCharsets.US_ASCII));
        return request -> {
            String presented = BearerToken.parse(request.header(HeaderName.AUTHORIZATION));
            boolean ok = presented != null
                && MessageDigest.isEqual(presented.getBytes(StandardCharsets.ISO_8859_1), expected);
            return ok ? endpoint.handle(request) : unauthorized;
        };
    }

    /** {@code /ready} answers 503 from now on; call when the server starts draining. */
    @Override
    public void beginDrain() {
        service.beginDrain();
    }

    @Override
    public void close() {
        visitFlusher.shutdownNow();
        metrics.unregister(collector);
        service.close();
    }
}
