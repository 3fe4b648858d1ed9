package dev.hotpath.apps.shortener.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.hotpath.apps.shortener.ApiKeys;
import dev.hotpath.apps.shortener.ShortenerConfig;
import dev.hotpath.http.Deferred;
import dev.hotpath.http.HeaderName;
import dev.hotpath.http.Request;
import dev.hotpath.http.Responder;
import dev.hotpath.http.Response;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The shortener's request handling over a {@link LinkStore}: resolving (the hot path: decode, index,
 * redirect written from the URL arena), authentication, and the read side of the API. Writes are {@link LinkWrites}'.
 */
public final class ShortenerService implements AutoCloseable {
    private static final int DEFAULT_PAGE = 100;
    private static final int MAX_PAGE = 1000;
    private static final Response OK = Response.of(200, "text/plain", "ok".getBytes(StandardCharsets.US_ASCII));
    private static final Response NOT_READY = Errors.error(503, "not_ready", "the server is draining");

    private final ShortenerConfig config;
    private final LinkStore store;
    private final LinkTable table;
    final ScrambledCodes scrambled;
    private final ApiKeys keys;
    private final long startedAt;
    private final LinkWrites writes;
    private volatile boolean draining;

    public ShortenerService(ShortenerConfig config) {
        this.config = config;
        this.store = LinkStore.open(new LinkStore.Settings(config.dataDir(), config.durability(), config.codes(),
            config.maxLinks(), config.maxBatch()));
        this.table = store.table;
        this.scrambled = config.codes().equals("scrambled") ? new ScrambledCodes(store.secret) : null;
        this.keys = ApiKeys.open(config.dataDir(), config.clock());
        this.startedAt = config.clock().millis();
        this.writes = new LinkWrites(this, config, store, table);
    }

    public int links() {
        return table.live();
    }

    public int capacity() {
        return config.maxLinks();
    }

    public dev.hotpath.store.GroupCommitWriter.Stats writerStats() {
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

    /** Persists visit counts, commits every queued write, releases the data directory. */
    @Override
    public void close() {
        flushVisits();
        store.close();
    }

    // ---- resolving: the hot path

    /** Answers {@code GET /{code}} ({@code countVisit}) and {@code HEAD /{code}}. */
    public void resolve(Request request, Responder responder, boolean countVisit) {
        int id = find(new RequestCode(request));
        if (id < 0) {
            responder.send(Errors.NOT_FOUND);
            return;
        }
        int flags = table.flags(id);
        if ((flags & LinkTable.DELETED) != 0 || table.expired(id, flags, config.clock())) {
            responder.send(Errors.GONE);
            return;
        }
        if (countVisit) {
            table.countVisit(id);
        }
        responder.redirect(config.redirectStatus(), table.urls(), table.location(id));
    }

    /** The link a code names, or -1: generated codes by arithmetic, aliases and protected codes by name. */
    int find(CodeSpan code) {
        long id = generatedId(code);
        if (id != ScrambledCodes.NOT_SHAPED) {
            return id >= 0 && id < table.size() && (table.flags((int) id) & LinkTable.NAMED) == 0 ? (int) id : -1;
        }
        int length = code.length();
        if (length < 3 || length > 64) {
            return -1;
        }
        byte[] name = new byte[length];
        for (int i = 0; i < length; i++) {
            name[i] = code.byteAt(i);
        }
        return table.findByName(new String(name, StandardCharsets.ISO_8859_1));
    }

    /** The id of a generated code, {@link ScrambledCodes#NOT_SHAPED} or {@link ScrambledCodes#NOT_A_CODE}. */
    private long generatedId(CodeSpan code) {
        if (scrambled != null) {
            return scrambled.decode(code);
        }
        if (!SequentialCodes.hasShape(code)) {
            return ScrambledCodes.NOT_SHAPED;
        }
        long id = SequentialCodes.decode(code);
        return id >= 0 ? id : ScrambledCodes.NOT_A_CODE;
    }

    String codeOf(int id) {
        String name = table.name(id);
        if (name != null) {
            return name;
        }
        return scrambled != null ? scrambled.encode(id) : SequentialCodes.encode(id);
    }

    // ---- service endpoints

    public Response health(Request request) {
        return OK;
    }

    /** Whether the shortener takes traffic: until {@link #beginDrain()}. */
    public boolean ready() {
        return !draining;
    }

    public Response ready(Request request) {
        return draining ? NOT_READY : OK;
    }

    public boolean authorized(Request request) {
        String header = request.header(HeaderName.AUTHORIZATION);
        if (header == null || header.length() < 8 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        return keys.verify(header.substring(7).trim().getBytes(StandardCharsets.ISO_8859_1));
    }

    public Response stats(Request request) {
        if (!authorized(request)) {
            return Errors.UNAUTHORIZED;
        }
        long uptime = (config.clock().millis() - startedAt) / 1000;
        return json(200, LinkJson.write(json -> {
            json.writeStartObject();
            json.writeNumberField("links", table.live());
            json.writeNumberField("capacity", config.maxLinks());
            json.writeNumberField("visits", table.totalVisits());
            json.writeNumberField("uptime_s", uptime);
            json.writeEndObject();
        }));
    }

    // ---- reading

    public Response read(Request request) {
        if (!authorized(request)) {
            return Errors.UNAUTHORIZED;
        }
        int id = find(new RequestCode(request));
        if (id < 0) {
            return Errors.NOT_FOUND;
        }
        if ((table.flags(id) & LinkTable.DELETED) != 0) {
            return Errors.GONE;
        }
        return json(200, LinkJson.write(json -> writeLink(json, id)));
    }

    public Response list(Request request) {
        if (!authorized(request)) {
            return Errors.UNAUTHORIZED;
        }
        int from = 0;
        int limit = DEFAULT_PAGE;
        String query = request.query();
        if (query != null && !query.isEmpty()) {
            for (String pair : query.split("&", -1)) {
                int eq = pair.indexOf('=');
                String name = eq < 0 ? pair : pair.substring(0, eq);
                String value = eq < 0 ? "" : pair.substring(eq + 1);
                switch (name) {
                    case "after" -> {
                        int after = find(CodeSpan.of(value));
                        if (after < 0) {
                            return invalidQuery("after is not the code of a link");
                        }
                        from = after + 1;
                    }
                    case "limit" -> {
                        try {
                            limit = Integer.parseInt(value);
                        } catch (NumberFormatException e) {
                            return invalidQuery("limit must be a number from 1 to " + MAX_PAGE);
                        }
                        if (limit < 1 || limit > MAX_PAGE) {
                            return invalidQuery("limit must be a number from 1 to " + MAX_PAGE);
                        }
                    }
                    default -> {
                        return invalidQuery("unknown query parameter");
                    }
                }
            }
        }
        int start = from;
        int pageSize = limit;
        return json(200, LinkJson.write(json -> {
            json.writeStartObject();
            json.writeArrayFieldStart("links");
            int size = table.size();
            int last = -1;
            int written = 0;
            int id = start;
            for (; id < size && written < pageSize; id++) {
                if ((table.flags(id) & LinkTable.DELETED) == 0) {
                    writeLink(json, id);
                    last = id;
                    written++;
                }
            }
            boolean more = false;
            for (; id < size && !more; id++) {
                more = (table.flags(id) & LinkTable.DELETED) == 0;
            }
            json.writeEndArray();
            if (more) {
                json.writeStringField("next", codeOf(last));
            } else {
                json.writeNullField("next");
            }
            json.writeEndObject();
        }));
    }

    private static Response invalidQuery(String message) {
        return Errors.error(400, "invalid_query", message);
    }

    void writeLink(JsonGenerator json, int id) throws IOException {
        String code = codeOf(id);
        LinkJson.writeLink(json, code, config.publicBase() + "/" + code, table.longUrl(id), table.createdAt(id),
            table.expiresAt(id), (table.flags(id) & LinkTable.PROTECTED) != 0, table.visits(id));
    }

    static Response json(int status, byte[] body) {
        return Response.builder(status).header("Cache-Control", "no-store").body("application/json", body);
    }

    // ---- writing: see LinkWrites

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

    /** Queues the changed visit counts for the next commit; called once a second and at close. */
    public void flushVisits() {
        writes.flushVisits();
    }
}
