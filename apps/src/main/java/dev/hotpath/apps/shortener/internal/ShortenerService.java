package dev.hotpath.apps.shortener.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.hotpath.apps.shortener.ApiKeys;
import dev.hotpath.apps.shortener.ShortenerConfig;
import dev.hotpath.http.Deferred;
import dev.hotpath.http.HeaderName;
import dev.hotpath.http.Request;
import dev.hotpath.http.Response;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * The shortener's request handling over a {@link LinkStore}: resolving (the hot path: decode, index,
 * pre-built redirect), and the authenticated API, whose writes go through the store's group-commit
 * writer and are answered only after their commit.
 */
public final class ShortenerService implements AutoCloseable {
    static final int PROTECTED_CODE_LENGTH = 16;
    private static final Pattern ALIAS = Pattern.compile("[A-Za-z0-9_-]{3,64}");
    private static final Set<String> RESERVED = Set.of("api", "health", "ready", "metrics", "shorten", "favicon.ico",
        "robots.txt");
    static final int MAX_BULK = 1000;
    private static final int DEFAULT_PAGE = 100;
    private static final int MAX_PAGE = 1000;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Response OK = Response.of(200, "text/plain", "ok".getBytes(StandardCharsets.US_ASCII));
    private static final Response NOT_READY = Errors.error(503, "not_ready", "the server is draining");
    private static final Response DELETED = Response.empty(204);

    private final ShortenerConfig config;
    private final LinkStore store;
    private final LinkTable table;
    private final ScrambledCodes scrambled;
    private final ApiKeys keys;
    private final long startedAt;
    private final AtomicInteger createsInFlight = new AtomicInteger();
    private volatile boolean draining;

    public ShortenerService(ShortenerConfig config) {
        this.config = config;
        this.store = LinkStore.open(new LinkStore.Settings(config.dataDir(), config.durability(), config.codes(),
            config.maxLinks(), config.maxBatch(), config.redirectStatus()));
        this.table = store.table;
        this.scrambled = config.codes().equals("scrambled") ? new ScrambledCodes(store.secret) : null;
        this.keys = ApiKeys.open(config.dataDir(), config.clock());
        this.startedAt = config.clock().millis();
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

    public Response resolve(Request request, boolean countVisit) {
        int id = find(new RequestCode(request));
        if (id < 0) {
            return Errors.NOT_FOUND;
        }
        int flags = table.flags(id);
        if ((flags & LinkTable.DELETED) != 0 || table.expired(id, flags, config.clock().millis())) {
            return Errors.GONE;
        }
        if (countVisit) {
            table.countVisit(id);
        }
        return table.redirect(id);
    }

    /** The link a code names, or -1: generated codes by arithmetic, aliases and protected codes by name. */
    int find(CodeSpan code) {
        boolean generatedShape = scrambled != null ? ScrambledCodes.hasShape(code) : SequentialCodes.hasShape(code);
        if (generatedShape) {
            long id = scrambled != null ? scrambled.decode(code) : SequentialCodes.decode(code);
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

    private void writeLink(JsonGenerator json, int id) throws IOException {
        String code = codeOf(id);
        LinkJson.writeLink(json, code, config.publicBase() + "/" + code, table.longUrl(id), table.createdAt(id),
            table.expiresAt(id), (table.flags(id) & LinkTable.PROTECTED) != 0, table.visits(id));
    }

    private static Response json(int status, byte[] body) {
        return Response.builder(status).header("Cache-Control", "no-store").body("application/json", body);
    }

    // ---- writing

    /** {@code POST /api/links} (and the compatibility paths). */
    public void create(Request request, Deferred response) {
        Response refusal = refuseWrite(request);
        if (refusal != null) {
            response.complete(refusal);
            return;
        }
        LinkJson.CreateRequest create;
        try {
            create = LinkJson.parseCreate(request.bodyBytes());
        } catch (LinkJson.Invalid e) {
            response.complete(Errors.error(400, e.code, e.getMessage()));
            return;
        }
        Prepared prepared;
        try {
            prepared = prepare(create);
        } catch (LinkJson.Invalid e) {
            response.complete(Errors.error(400, e.code, e.getMessage()));
            return;
        }
        Response refused = admit(prepared);
        if (refused != null) {
            response.complete(refused);
            return;
        }
        List<Prepared> one = List.of(prepared);
        if (!store.offer(new CreateLinks(one, links -> response.complete(created(links.getFirst())),
            () -> response.complete(Errors.STORE_FAILED)))) {
            release(one);
            response.complete(Errors.OVERLOADED);
        }
    }

    /** {@code POST /api/links/bulk}: up to {@value #MAX_BULK} creates, every accepted one in one transaction. */
    public void bulkCreate(Request request, Deferred response) {
        Response refusal = refuseWrite(request);
        if (refusal != null) {
            response.complete(refusal);
            return;
        }
        List<Object> items;
        try {
            items = readBulk(request.bodyBytes());
        } catch (LinkJson.Invalid e) {
            response.complete(Errors.error(400, e.code, e.getMessage()));
            return;
        }
        Object[] results = new Object[items.size()];
        List<Prepared> accepted = new ArrayList<>();
        List<Integer> positions = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            Object item = items.get(i);
            try {
                if (item instanceof LinkJson.Invalid invalid) {
                    throw invalid;
                }
                Prepared prepared = prepare((LinkJson.CreateRequest) item);
                Response refused = admit(prepared);
                results[i] = refused;
                if (refused == null) {
                    accepted.add(prepared);
                    positions.add(i);
                }
            } catch (LinkJson.Invalid e) {
                results[i] = Errors.error(400, e.code, e.getMessage());
            }
        }
        if (accepted.isEmpty()) {
            response.complete(bulkResults(results));
            return;
        }
        boolean queued = store.offer(new CreateLinks(accepted, ids -> {
            for (int k = 0; k < ids.size(); k++) {
                results[positions.get(k)] = ids.get(k);
            }
            response.complete(bulkResults(results));
        }, () -> {
            positions.forEach(k -> results[k] = Errors.STORE_FAILED);
            response.complete(bulkResults(results));
        }));
        if (!queued) {
            release(accepted);
            positions.forEach(k -> results[k] = Errors.OVERLOADED);
            response.complete(bulkResults(results));
        }
    }

    /** The items of a bulk body: a {@code CreateRequest} or the {@code Invalid} that item is. */
    private static List<Object> readBulk(byte[] body) throws LinkJson.Invalid {
        List<Object> items = new ArrayList<>();
        try (JsonParser parser = LinkJson.FACTORY.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                throw new LinkJson.Invalid("malformed_json", "the body must be a JSON array of create objects");
            }
            JsonToken token;
            while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
                if (token == null) {
                    throw new LinkJson.Invalid("malformed_json", "the body is not valid JSON");
                }
                if (items.size() == MAX_BULK) {
                    throw new LinkJson.Invalid("too_many_items", "at most " + MAX_BULK + " items per request");
                }
                if (token != JsonToken.START_OBJECT) {
                    parser.skipChildren();
                    items.add(new LinkJson.Invalid("malformed_json", "an item must be a JSON object"));
                    continue;
                }
                try {
                    items.add(LinkJson.readCreateFields(parser));
                } catch (LinkJson.Invalid e) {
                    items.add(e);
                }
            }
            if (parser.nextToken() != null) {
                throw new LinkJson.Invalid("malformed_json", "unexpected content after the JSON array");
            }
            return items;
        } catch (IOException e) {
            throw new LinkJson.Invalid("malformed_json", "the body is not valid JSON");
        }
    }

    /** {@code {"results":[...]}}: a created link's id (Integer) or a refusal (Response) per item. */
    private Response bulkResults(Object[] results) {
        return json(200, LinkJson.write(json -> {
            json.writeStartObject();
            json.writeArrayFieldStart("results");
            for (Object result : results) {
                json.writeStartObject();
                if (result instanceof Integer id) {
                    json.writeNumberField("status", 201);
                    json.writeFieldName("link");
                    writeLink(json, id);
                } else {
                    Response refusal = (Response) result;
                    json.writeNumberField("status", refusal.status());
                    byte[] wire = refusal.wire();
                    try (JsonParser error = LinkJson.FACTORY.createParser(wire, refusal.headLength(),
                        wire.length - refusal.headLength())) {
                        error.nextToken();
                        while (error.nextToken() == JsonToken.FIELD_NAME) {
                            String name = error.currentName();
                            error.nextToken();
                            json.writeStringField(name, error.getText());
                        }
                    }
                }
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        }));
    }

    /** Claims the name and a place within capacity; the refusal, or null when admitted. */
    private Response admit(Prepared prepared) {
        if (prepared.name() != null && !table.claimName(prepared.name())) {
            return Errors.ALIAS_TAKEN;
        }
        if (createsInFlight.incrementAndGet() + table.size() > config.maxLinks()) {
            createsInFlight.decrementAndGet();
            releaseName(prepared);
            return Errors.CAPACITY_FULL;
        }
        return null;
    }

    private void release(List<Prepared> admitted) {
        for (Prepared prepared : admitted) {
            createsInFlight.decrementAndGet();
            releaseName(prepared);
        }
    }

    private Response created(int id) {
        String code = codeOf(id);
        return Response.builder(201).header("Location", "/api/links/" + code).header("Cache-Control", "no-store")
            .body("application/json", LinkJson.write(json -> writeLink(json, id)));
    }

    /** {@code DELETE /api/links/{code}}. */
    public void delete(Request request, Deferred response) {
        if (!authorized(request)) {
            response.complete(Errors.UNAUTHORIZED);
            return;
        }
        int id = find(new RequestCode(request));
        if (id < 0) {
            response.complete(Errors.NOT_FOUND);
        } else if ((table.flags(id) & LinkTable.DELETED) != 0) {
            response.complete(Errors.GONE);
        } else if (!store.offer(new DeleteLink(id, response))) {
            response.complete(Errors.OVERLOADED);
        }
    }

    /** Queues the changed visit counts for the next commit; called once a second and at close. */
    public void flushVisits() {
        store.offer(new FlushVisits());
    }

    private Response refuseWrite(Request request) {
        if (!authorized(request)) {
            return Errors.UNAUTHORIZED;
        }
        String type = request.header(HeaderName.CONTENT_TYPE);
        if (type != null) {
            int semicolon = type.indexOf(';');
            String media = (semicolon < 0 ? type : type.substring(0, semicolon)).trim();
            if (!media.equalsIgnoreCase("application/json")) {
                return Errors.UNSUPPORTED_MEDIA_TYPE;
            }
        }
        return null;
    }

    /** A create request checked and normalized: what the writer stores. */
    record Prepared(String url, String name, boolean isProtected, long createdAt, long expiresAt) {
    }

    private Prepared prepare(LinkJson.CreateRequest create) throws LinkJson.Invalid {
        String url;
        try {
            url = UrlNormalizer.normalize(create.url());
        } catch (IllegalArgumentException e) {
            throw new LinkJson.Invalid("invalid_url", e.getMessage());
        }
        if (denied(UrlNormalizer.hostOf(url))) {
            throw new LinkJson.Invalid("denied_host", "links to this host are not accepted here");
        }
        long now = config.clock().millis();
        long expires = -1;
        if (create.expiresAt() != null) {
            expires = create.expiresAt().toEpochMilli();
            if (expires <= now) {
                throw new LinkJson.Invalid("invalid_expiry", "expires_at is not in the future");
            }
        }
        String name = null;
        if (create.isProtected()) {
            if (create.alias() != null) {
                throw new LinkJson.Invalid("invalid_alias", "a protected link gets a random code: omit alias");
            }
            name = randomCode();
        } else if (create.alias() != null) {
            name = create.alias();
            checkAlias(name);
        }
        return new Prepared(url, name, create.isProtected(), now, expires);
    }

    private void checkAlias(String alias) throws LinkJson.Invalid {
        if (!ALIAS.matcher(alias).matches()) {
            throw new LinkJson.Invalid("invalid_alias", "alias must be 3 to 64 of A-Z a-z 0-9 _ -");
        }
        if (RESERVED.contains(alias.toLowerCase(Locale.ROOT))) {
            throw new LinkJson.Invalid("invalid_alias", "this alias is reserved");
        }
        CodeSpan span = CodeSpan.of(alias);
        if (scrambled != null ? ScrambledCodes.hasShape(span) : SequentialCodes.hasShape(span)) {
            throw new LinkJson.Invalid("invalid_alias", scrambled != null
                ? "an alias of exactly 8 letters and digits could be a generated code: add a _ or -, or change its length"
                : "an alias of at most 11 letters and digits could be a generated code: add a _ or -, or make it longer");
        }
    }

    private boolean denied(String host) {
        Set<String> denied = config.deniedHosts();
        if (denied.isEmpty()) {
            return false;
        }
        if (denied.contains(host)) {
            return true;
        }
        for (String h = host; h.indexOf('.') >= 0; h = h.substring(h.indexOf('.') + 1)) {
            if (denied.contains("*." + h)) {
                return true;
            }
        }
        return false;
    }

    private static String randomCode() {
        StringBuilder code = new StringBuilder(PROTECTED_CODE_LENGTH);
        for (int i = 0; i < PROTECTED_CODE_LENGTH; i++) {
            code.append(Base62.ALPHABET.charAt(RANDOM.nextInt(62)));
        }
        return code.toString();
    }

    private void releaseName(Prepared prepared) {
        if (prepared.name() != null) {
            table.releaseName(prepared.name());
        }
    }

    /** Inserts links in one transaction; publishes them, then reports their ids (or the failure). */
    private final class CreateLinks implements dev.hotpath.store.Write {
        private final List<Prepared> links;
        private final java.util.function.Consumer<List<Integer>> onCommitted;
        private final Runnable onFailed;
        private final int[] ids;

        CreateLinks(List<Prepared> links, java.util.function.Consumer<List<Integer>> onCommitted, Runnable onFailed) {
            this.links = links;
            this.onCommitted = onCommitted;
            this.onFailed = onFailed;
            this.ids = new int[links.size()];
        }

        @Override
        public void apply(java.sql.Connection db) throws java.sql.SQLException {
            for (int i = 0; i < links.size(); i++) {
                Prepared link = links.get(i);
                int next = store.takeId();
                if (db != null) {
                    var insert = store.statement(db, "INSERT INTO links (id, name, long_url, created_at, expires_at,"
                        + " protected) VALUES (?, ?, ?, ?, ?, ?)");
                    insert.setInt(1, next);
                    insert.setString(2, link.name());
                    insert.setString(3, link.url());
                    insert.setLong(4, link.createdAt());
                    if (link.expiresAt() < 0) {
                        insert.setNull(5, java.sql.Types.INTEGER);
                    } else {
                        insert.setLong(5, link.expiresAt());
                    }
                    insert.setInt(6, link.isProtected() ? 1 : 0);
                    insert.executeUpdate();
                }
                store.idTaken();
                ids[i] = next;
            }
        }

        @Override
        public void committed() {
            List<Integer> published = new ArrayList<>(links.size());
            for (int i = 0; i < links.size(); i++) {
                Prepared link = links.get(i);
                table.publish(ids[i], LinkStore.redirect(config.redirectStatus(), link.url()), link.createdAt(),
                    link.name(), link.isProtected(), link.expiresAt(), 0, false);
                createsInFlight.decrementAndGet();
                published.add(ids[i]);
            }
            onCommitted.accept(published);
        }

        @Override
        public void failed(Exception cause) {
            release(links);
            System.getLogger(ShortenerService.class.getName()).log(System.Logger.Level.ERROR, "create failed", cause);
            onFailed.run();
        }
    }

    /** Marks one link deleted; answers 204 after the commit (410 when a concurrent delete won). */
    private final class DeleteLink implements dev.hotpath.store.Write {
        private final int id;
        private final Deferred response;

        DeleteLink(int id, Deferred response) {
            this.id = id;
            this.response = response;
        }

        @Override
        public void apply(java.sql.Connection db) throws java.sql.SQLException {
            if (db != null) {
                var update = store.statement(db, "UPDATE links SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL");
                update.setLong(1, config.clock().millis());
                update.setInt(2, id);
                update.executeUpdate();
            }
        }

        @Override
        public void committed() {
            response.complete(table.markDeleted(id) ? DELETED : Errors.GONE);
        }

        @Override
        public void failed(Exception cause) {
            System.getLogger(ShortenerService.class.getName()).log(System.Logger.Level.ERROR, "delete failed", cause);
            response.complete(Errors.STORE_FAILED);
        }
    }

    /**
     * Appends the visit counts that changed since the last flush to the visit log: one row, one
     * statement, whatever the number of links, instead of an UPDATE per link (which, at tens of
     * thousands of distinct links a second, cost more than the redirects themselves).
     */
    private final class FlushVisits implements dev.hotpath.store.Write {
        @Override
        public void apply(java.sql.Connection db) throws java.sql.SQLException {
            java.io.ByteArrayOutputStream counts = new java.io.ByteArrayOutputStream();
            java.io.DataOutputStream out = new java.io.DataOutputStream(counts);
            table.drainChangedVisits((id, visits) -> {
                try {
                    out.writeInt(id);
                    out.writeLong(visits);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            if (db != null && counts.size() > 0) {
                var insert = store.statement(db, "INSERT INTO visit_log (counts) VALUES (?)");
                insert.setBytes(1, counts.toByteArray());
                insert.executeUpdate();
            }
        }

        @Override
        public void committed() {
        }

        @Override
        public void failed(Exception cause) {
            System.getLogger(ShortenerService.class.getName()).log(System.Logger.Level.WARNING,
                "visit counts not persisted", cause);
        }
    }
}
