package dev.hotpath.apps.shortener.internal;

import dev.hotpath.apps.shortener.ApiKeys;
import dev.hotpath.apps.shortener.ShortenerConfig;
import dev.hotpath.http.Deferred;
import dev.hotpath.http.Request;
import dev.hotpath.http.Responder;
import dev.hotpath.http.Response;
import dev.hotpath.store.GroupCommitWriter;
import java.nio.charset.StandardCharsets;

/**
 * The shortener's request handling over a {@link LinkStore}, whichever engine it is: puts together
 * the code scheme, the API keys, the read side ({@link LinkReads}) and the write side
 * ({@link LinkWrites}), answers health and readiness, and owns the store from now on (closing the
 * service closes it).
 */
public final class ShortenerService implements AutoCloseable {
    private static final Response OK = Response.of(200, "text/plain", "ok".getBytes(StandardCharsets.US_ASCII));
    private static final Response NOT_READY = Errors.retryLater("not_ready", "the server is draining");

    private final ShortenerConfig config;
    private final LinkStore store;
    private final ApiKeys keys;
    private final QrCodes qrCodes;
    private final LinkReads reads;
    private final LinkWrites writes;
    private volatile boolean draining;

    public ShortenerService(ShortenerConfig config, LinkStore store) {
        this.config = config;
        this.store = store;
        this.keys = ApiKeys.open(config.dataDir(), config.clock());
        CodeScheme codes = config.codes().equals("scrambled") ? new ScrambledCodes(store.codeSecret())
            : new SequentialCodes();
        LinkTable table = store.table();
        LinkIndex index = new LinkIndex(table, codes, config.publicBase());
        ApiKeyAuth auth = new ApiKeyAuth(keys);
        this.qrCodes = new QrCodes(config.publicBase());
        this.reads = new LinkReads(table, index, auth, qrCodes, config.clock(), config.redirectStatus(),
            config.maxLinks());
        this.writes = new LinkWrites(store, index, auth, new LinkRequests(codes, config.deniedHosts(), config.clock()),
            new CreateAdmission(table, config.maxLinks()), config.clock());
    }

    public int links() {
        return store.table().live();
    }

    public int capacity() {
        return config.maxLinks();
    }

    public GroupCommitWriter.Stats writerStats() {
        return store.writerStats();
    }

    /** The key file changed under this process's own hand: check keys against it from now on. */
    public void keysChanged() {
        keys.reload();
    }

    /** From now on {@code /ready} answers 503. */
    public void beginDrain() {
        draining = true;
    }

    /** Queues the changed visit counts for the next commit; called once a second and at close. */
    public void flushVisits() {
        store.flushVisits();
    }

    /** Persists visit counts, stores every queued write, releases the store. */
    @Override
    public void close() {
        qrCodes.close();
        flushVisits();
        store.close();
    }

    /** {@code GET /{code}} ({@code countVisit}) and {@code HEAD /{code}}: the redirect hot path. */
    public void resolve(Request request, Responder responder, boolean countVisit) {
        reads.resolve(request, responder, countVisit);
    }

    public Response health(Request request) {
        return OK;
    }

    public Response ready(Request request) {
        return draining ? NOT_READY : OK;
    }

    /** {@code GET /api/stats}. */
    public Response stats(Request request) {
        return reads.stats(request);
    }

    /** {@code GET /api/links/{code}}. */
    public Response read(Request request) {
        return reads.read(request);
    }

    /** {@code GET /api/links/{code}/qr.svg}. */
    public void qr(Request request, Deferred response) {
        reads.qr(request, response);
    }

    /** {@code GET /api/links}. */
    public Response list(Request request) {
        return reads.list(request);
    }

    /** {@code POST /api/links} (and the compatibility paths). */
    public void create(Request request, Deferred response) {
        writes.create(request, response);
    }

    /** {@code POST /api/links/bulk}. */
    public void bulkCreate(Request request, Deferred response) {
        writes.bulkCreate(request, response);
    }

    /** {@code DELETE /api/links/{code}}. */
    public void delete(Request request, Deferred response) {
        writes.delete(request, response);
    }
}
