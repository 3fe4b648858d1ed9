package dev.hotpath.apps.shortener.internal;

import dev.hotpath.http.Deferred;
import dev.hotpath.http.Request;
import dev.hotpath.http.Responder;
import dev.hotpath.http.Response;
import java.time.Clock;

/**
 * The read side of the shortener API, answered from the {@link LinkTable} on the event loop that
 * received the request: resolving (the hot path: decode, index, redirect written from the URL arena,
 * no allocation for a generated code), one link, a page of links, and the stats.
 */
final class LinkReads {
    private static final int DEFAULT_PAGE = 100;
    private static final int MAX_PAGE = 1000;

    private final LinkTable table;
    private final LinkIndex index;
    private final ApiKeyAuth auth;
    private final QrCodes qrCodes;
    private final Clock clock;
    private final int redirectStatus;
    private final int capacity;
    private final long startedAt;

    LinkReads(LinkTable table, LinkIndex index, ApiKeyAuth auth, QrCodes qrCodes, Clock clock, int redirectStatus,
              int capacity) {
        this.table = table;
        this.index = index;
        this.auth = auth;
        this.qrCodes = qrCodes;
        this.clock = clock;
        this.redirectStatus = redirectStatus;
        this.capacity = capacity;
        this.startedAt = clock.millis();
    }

    /** Answers {@code GET /{code}} ({@code countVisit}) and {@code HEAD /{code}}. */
    void resolve(Request request, Responder responder, boolean countVisit) {
        int id = index.find(new RequestCode(request));
        if (id < 0) {
            responder.send(Errors.NOT_FOUND);
            return;
        }
        if (gone(id)) {
            responder.send(Errors.GONE);
            return;
        }
        if (countVisit) {
            table.countVisit(id);
        }
        responder.redirect(redirectStatus, table.urls(), table.location(id));
    }

    /** Deleted, or expired by now. */
    private boolean gone(int id) {
        int flags = table.flags(id);
        return (flags & LinkTable.DELETED) != 0 || table.expired(id, flags, clock);
    }

    /** {@code GET /api/links/{code}/qr.svg}: public, for a live link only (as a redirect is). */
    void qr(Request request, Deferred response) {
        int id = index.find(new RequestCode(request));
        if (id < 0) {
            response.complete(Errors.NOT_FOUND);
        } else if (gone(id)) {
            response.complete(Errors.GONE);
        } else {
            qrCodes.answer(request.pathParam(0), request.header(EntityTags.IF_NONE_MATCH), response);
        }
    }

    Response stats(Request request) {
        if (!auth.authorized(request)) {
            return Errors.UNAUTHORIZED;
        }
        long uptime = (clock.millis() - startedAt) / 1000;
        return LinkJson.answer(200, json -> {
            json.writeStartObject();
            json.writeNumberField("links", table.live());
            json.writeNumberField("capacity", capacity);
            json.writeNumberField("visits", table.totalVisits());
            json.writeNumberField("uptime_s", uptime);
            json.writeEndObject();
        });
    }

    Response read(Request request) {
        if (!auth.authorized(request)) {
            return Errors.UNAUTHORIZED;
        }
        int id = index.find(new RequestCode(request));
        if (id < 0) {
            return Errors.NOT_FOUND;
        }
        if ((table.flags(id) & LinkTable.DELETED) != 0) {
            return Errors.GONE;
        }
        return LinkJson.answer(200, json -> index.writeLink(json, id));
    }

    /** {@code GET /api/links?after=<code>&limit=<n>}: live links in creation order, with the code to go on from. */
    Response list(Request request) {
        if (!auth.authorized(request)) {
            return Errors.UNAUTHORIZED;
        }
        PageQuery query;
        try {
            query = PageQuery.parse(request.query(), DEFAULT_PAGE, MAX_PAGE);
        } catch (PageQuery.Invalid e) {
            return Errors.error(400, "invalid_query", e.getMessage());
        }
        int from = 0;
        if (query.after() != null) {
            int after = index.find(CodeSpan.of(query.after()));
            if (after < 0) {
                return PageQuery.NOT_A_LINK;
            }
            from = after + 1;
        }
        return page(from, query.limit());
    }

    private Response page(int from, int limit) {
        return LinkJson.answer(200, json -> {
            json.writeStartObject();
            json.writeArrayFieldStart("links");
            int size = table.size();
            int last = -1;
            int written = 0;
            int id = from;
            for (; id < size && written < limit; id++) {
                if ((table.flags(id) & LinkTable.DELETED) == 0) {
                    index.writeLink(json, id);
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
                json.writeStringField("next", index.codeOf(last));
            } else {
                json.writeNullField("next");
            }
            json.writeEndObject();
        });
    }
}
