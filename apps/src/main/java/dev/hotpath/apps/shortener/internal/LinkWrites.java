package dev.hotpath.apps.shortener.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.hotpath.apps.shortener.ShortenerConfig;
import dev.hotpath.http.Deferred;
import dev.hotpath.http.HeaderName;
import dev.hotpath.http.Request;
import dev.hotpath.http.Response;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * The write side of the shortener API: create, bulk create, delete, and the visit-count flush. Each
 * request is checked and admitted on the event loop (auth, JSON, URL, alias, capacity, a claim on its
 * name), then handed to the store's group-commit writer as a {@link dev.hotpath.store.Write}; it is
 * published to the {@link LinkTable} and answered only after the commit that holds it.
 */
final class LinkWrites {
    static final int PROTECTED_CODE_LENGTH = 16;
    static final int MAX_BULK = 1000;
    private static final Pattern ALIAS = Pattern.compile("[A-Za-z0-9_-]{3,64}");
    private static final Set<String> RESERVED = Set.of("api", "health", "ready", "metrics", "shorten", "favicon.ico",
        "robots.txt");
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Response DELETED = Response.empty(204);

    private final ShortenerService service;
    private final ShortenerConfig config;
    private final LinkStore store;
    private final LinkTable table;
    private final AtomicInteger createsInFlight = new AtomicInteger();

    LinkWrites(ShortenerService service, ShortenerConfig config, LinkStore store, LinkTable table) {
        this.service = service;
        this.config = config;
        this.store = store;
        this.table = table;
    }


    /** {@code POST /api/links} (and the compatibility paths). */
    void create(Request request, Deferred response) {
        Response refusal = refuseWrite(request);
        if (refusal != null) {
            response.complete(refusal);
            return;
        }
        LinkJson.CreateRequest create;
        try {
            create = LinkJson.parseCreate(request.bodyBytes());
        } catch (LinkJson.Invalid e) {
            response.complete(e.refusal().response);
            return;
        }
        Prepared prepared;
        try {
            prepared = prepare(create);
        } catch (LinkJson.Invalid e) {
            response.complete(e.refusal().response);
            return;
        }
        Errors.Refusal refused = admit(prepared);
        if (refused != null) {
            response.complete(refused.response);
            return;
        }
        List<Prepared> one = List.of(prepared);
        if (!store.offer(new CreateLinks(one, links -> response.complete(created(links.getFirst())),
            () -> response.complete(Errors.STORE_FAILED.response)))) {
            release(one);
            response.complete(Errors.OVERLOADED.response);
        }
    }

    /** {@code POST /api/links/bulk}: up to {@value #MAX_BULK} creates, every accepted one in one transaction. */
    void bulkCreate(Request request, Deferred response) {
        Response refusal = refuseWrite(request);
        if (refusal != null) {
            response.complete(refusal);
            return;
        }
        List<Object> items;
        try {
            items = readBulk(request.bodyBytes());
        } catch (LinkJson.Invalid e) {
            response.complete(e.refusal().response);
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
                Errors.Refusal refused = admit(prepared);
                results[i] = refused;
                if (refused == null) {
                    accepted.add(prepared);
                    positions.add(i);
                }
            } catch (LinkJson.Invalid e) {
                results[i] = e.refusal();
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

    /** {@code {"results":[...]}}: a created link's id (Integer) or its {@link Errors.Refusal} per item. */
    private Response bulkResults(Object[] results) {
        return ShortenerService.json(200, LinkJson.write(json -> {
            json.writeStartObject();
            json.writeArrayFieldStart("results");
            for (Object result : results) {
                json.writeStartObject();
                if (result instanceof Integer id) {
                    json.writeNumberField("status", 201);
                    json.writeFieldName("link");
                    service.writeLink(json, id);
                } else {
                    Errors.Refusal refusal = (Errors.Refusal) result;
                    json.writeNumberField("status", refusal.status);
                    json.writeStringField("error", refusal.code);
                    json.writeStringField("message", refusal.message);
                }
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        }));
    }

    /** Claims the name and a place within capacity; the refusal, or null when admitted. */
    private Errors.Refusal admit(Prepared prepared) {
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
        String code = service.codeOf(id);
        return Response.builder(201).header("Location", "/api/links/" + code).header("Cache-Control", "no-store")
            .body("application/json", LinkJson.write(json -> service.writeLink(json, id)));
    }

    /** {@code DELETE /api/links/{code}}. */
    void delete(Request request, Deferred response) {
        if (!service.authorized(request)) {
            response.complete(Errors.UNAUTHORIZED);
            return;
        }
        int id = service.find(new RequestCode(request));
        if (id < 0) {
            response.complete(Errors.NOT_FOUND);
        } else if ((table.flags(id) & LinkTable.DELETED) != 0) {
            response.complete(Errors.GONE);
        } else if (!store.offer(new DeleteLink(id, response))) {
            response.complete(Errors.OVERLOADED.response);
        }
    }

    /** Queues the changed visit counts for the next commit; called once a second and at close. */
    void flushVisits() {
        store.offer(new FlushVisits());
    }

    private Response refuseWrite(Request request) {
        if (!service.authorized(request)) {
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
        if (service.scrambled != null ? ScrambledCodes.hasShape(span) : SequentialCodes.hasShape(span)) {
            throw new LinkJson.Invalid("invalid_alias", service.scrambled != null
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
        public void apply(dev.hotpath.store.Transaction transaction) throws java.sql.SQLException {
            for (int i = 0; i < links.size(); i++) {
                Prepared link = links.get(i);
                int next = store.takeId();
                var insert = transaction.statement("INSERT INTO links (id, name, long_url, created_at, expires_at,"
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
                store.idTaken();
                ids[i] = next;
            }
        }

        @Override
        public void committed() {
            List<Integer> published = new ArrayList<>(links.size());
            for (int i = 0; i < links.size(); i++) {
                Prepared link = links.get(i);
                table.publish(ids[i], link.url(), link.createdAt(),
                    link.name(), link.isProtected(), link.expiresAt(), 0, false);
                createsInFlight.decrementAndGet();
                published.add(ids[i]);
            }
            onCommitted.accept(published);
        }

        @Override
        public void failed(Exception cause) {
            release(links);
            System.getLogger(LinkWrites.class.getName()).log(System.Logger.Level.ERROR, "create failed", cause);
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
        public void apply(dev.hotpath.store.Transaction transaction) throws java.sql.SQLException {
            var update = transaction.statement("UPDATE links SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL");
            update.setLong(1, config.clock().millis());
            update.setInt(2, id);
            update.executeUpdate();
        }

        @Override
        public void committed() {
            response.complete(table.markDeleted(id) ? DELETED : Errors.GONE);
        }

        @Override
        public void failed(Exception cause) {
            System.getLogger(LinkWrites.class.getName()).log(System.Logger.Level.ERROR, "delete failed", cause);
            response.complete(Errors.STORE_FAILED.response);
        }
    }

    /**
     * Appends the visit counts changed since the last flush to {@code visit_log}: one row, one
     * statement, whatever the number of links, instead of an UPDATE per link (which, at tens of
     * thousands of distinct links a second, cost more than the redirects themselves). The counts are
     * drained once, so a retry of this write by the writer inserts the same row; if it fails for good,
     * the drained links are marked unpersisted and the next flush writes them again.
     */
    private final class FlushVisits implements dev.hotpath.store.Write {
        private byte[] counts;

        @Override
        public void apply(dev.hotpath.store.Transaction transaction) throws java.sql.SQLException {
            if (counts == null) {
                counts = drainChangedVisits();
            }
            if (counts.length > 0) {
                var insert = transaction.statement("INSERT INTO visit_log (counts) VALUES (?)");
                insert.setBytes(1, counts);
                insert.executeUpdate();
            }
        }

        private byte[] drainChangedVisits() {
            java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(1024);
            java.nio.ByteBuffer[] grown = {out};
            table.drainChangedVisits((id, visits) -> {
                if (grown[0].remaining() < 12) {
                    grown[0] = java.nio.ByteBuffer.allocate(grown[0].capacity() * 2).put(grown[0].flip());
                }
                grown[0].putInt(id).putLong(visits);
            });
            return java.util.Arrays.copyOf(grown[0].array(), grown[0].position());
        }

        @Override
        public void committed() {
        }

        @Override
        public void failed(Exception cause) {
            System.getLogger(LinkWrites.class.getName()).log(System.Logger.Level.WARNING,
                "visit counts not persisted; the next flush retries them", cause);
            if (counts != null) {
                java.nio.ByteBuffer drained = java.nio.ByteBuffer.wrap(counts);
                while (drained.remaining() >= 12) {
                    table.unpersist(drained.getInt());
                    drained.getLong();
                }
            }
        }
    }
}
