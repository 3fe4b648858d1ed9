package dev.hotpath.apps.shortener.internal;

import dev.hotpath.http.Deferred;
import dev.hotpath.http.Request;
import dev.hotpath.http.Responder;
import dev.hotpath.http.Response;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * The read side of the scale-out mode. A redirect is answered on the event loop from the node's
 * {@link LocalLinks} when it holds the code (the hot path); otherwise the request is deferred and the
 * link looked up in Redis, then in PostgreSQL on the {@link LookupExecutor}, and what was found (or
 * not) is kept for the next request. The API's reads ({@code /api/links}, {@code /api/stats}) always
 * ask PostgreSQL, on the executor, after this node's visit counts are flushed and the logged ones folded.
 *
 * <p>What an answer can be: a code no link can have is 404 at once; a generated code above the
 * {@link IdBound} is 404 after the bound is refreshed; a look-up that cannot reach PostgreSQL is 503
 * {@code store_unavailable}, never 404, since the node cannot know.
 */
final class ClusterReads {
    private static final int DEFAULT_PAGE = 100;
    private static final int MAX_PAGE = 1000;

    private final LinkKeys keys;
    private final LocalLinks local;
    private final RedisLinks redis;
    private final PostgresLinks postgres;
    private final LookupExecutor executor;
    private final IdBound bound;
    private final VisitCounts visits;
    private final Consumer<Runnable> afterVisitsFolded;
    private final ApiKeyAuth auth;
    private final QrCodes qrCodes;
    private final Clock clock;
    private final int redirectStatus;
    private final long startedAt;
    private final ConcurrentHashMap<Object, CompletableFuture<CachedLink>> inFlight = new ConcurrentHashMap<>();
    private final LongAdder localHits = new LongAdder();
    private final LongAdder redisHits = new LongAdder();
    private final LongAdder postgresReads = new LongAdder();
    private final LongAdder negativeHits = new LongAdder();

    /**
     * @param redis null when the node runs without Redis
     * @param afterVisitsFolded flushes this node's visit counts and folds every node's logged ones, then
     *     runs what it is given: an API read shows every visit this node counted, and every one flushed
     *     anywhere, before it
     */
    ClusterReads(LinkKeys keys, LocalLinks local, RedisLinks redis, PostgresLinks postgres, LookupExecutor executor,
                 IdBound bound, VisitCounts visits, Consumer<Runnable> afterVisitsFolded, ApiKeyAuth auth,
                 QrCodes qrCodes, Clock clock, int redirectStatus) {
        this.keys = keys;
        this.local = local;
        this.redis = redis;
        this.postgres = postgres;
        this.executor = executor;
        this.bound = bound;
        this.visits = visits;
        this.afterVisitsFolded = afterVisitsFolded;
        this.auth = auth;
        this.qrCodes = qrCodes;
        this.clock = clock;
        this.redirectStatus = redirectStatus;
        this.startedAt = clock.millis();
    }

    /**
     * {@code GET /{code}} ({@code countVisit}) and {@code HEAD /{code}}. A generated code is looked up
     * by its id, unboxed: a hit allocates nothing.
     */
    void resolve(Request request, Responder responder, boolean countVisit) {
        RequestCode code = new RequestCode(request);
        long id = keys.idOf(code);
        String name = null;
        CachedLink link;
        if (id >= 0) {
            Response redirect = local.hit(id, countVisit);
            if (redirect != null) {
                localHits.increment();
                if (countVisit) {
                    visits.markCounted();
                }
                responder.send(redirect);
                return;
            }
            link = local.get(id);
        } else {
            name = keys.nameOf(code, id);
            if (name == null) {
                responder.send(Errors.NOT_FOUND);
                return;
            }
            link = local.get(name);
        }
        if (link != null) {
            (link.absent() ? negativeHits : localHits).increment();
            responder.send(answer(link, countVisit));
            return;
        }
        Deferred later = responder.defer();
        if (later == null) {
            return; // the engine answered 503: too many requests in flight
        }
        lookUp(name != null ? name : (Object) id).whenComplete((found, failure) ->
            later.complete(failure == null ? answer(found, countVisit) : LookupExecutor.answerTo(failure)));
    }

    private Response answer(CachedLink link, boolean countVisit) {
        Response refusal = refusal(link);
        if (refusal != null) {
            return refusal;
        }
        if (countVisit) {
            visits.count(link);
        }
        return link.redirect;
    }

    /** 404 for no such link, 410 for a deleted or expired one, null for a live one. */
    private Response refusal(CachedLink link) {
        return link.absent() ? Errors.NOT_FOUND : link.gone(clock) ? Errors.GONE : null;
    }

    /**
     * {@code GET /api/links/{code}/qr.svg}: public, for a live link only, found as a redirect finds it
     * (this node's cache, then Redis, then PostgreSQL).
     */
    void qr(Request request, Deferred response) {
        Object key = keys.keyOf(new RequestCode(request));
        if (key == null) {
            response.complete(Errors.NOT_FOUND);
            return;
        }
        String code = request.pathParam(0);
        String ifNoneMatch = request.header(EntityTags.IF_NONE_MATCH);
        CachedLink cached = key instanceof Long id ? local.get(id) : local.get((String) key);
        CompletableFuture<CachedLink> found = cached != null ? CompletableFuture.completedFuture(cached) : lookUp(key);
        found.whenComplete((link, failure) -> {
            Response refusal = failure != null ? LookupExecutor.answerTo(failure) : refusal(link);
            if (refusal != null) {
                response.complete(refusal);
            } else {
                qrCodes.answer(code, ifNoneMatch, response);
            }
        });
    }

    /**
     * The look-up of {@code key}, shared by every request that misses it while it runs: a burst of
     * requests for one cold link costs one Redis command and at most one PostgreSQL read, not one each.
     */
    private CompletableFuture<CachedLink> lookUp(Object key) {
        CompletableFuture<CachedLink> running = inFlight.get(key);
        if (running != null) {
            return running;
        }
        CompletableFuture<CachedLink> mine = new CompletableFuture<>();
        running = inFlight.putIfAbsent(key, mine);
        if (running != null) {
            return running;
        }
        lookUpAlone(key).whenComplete((link, failure) -> {
            inFlight.remove(key, mine);
            if (failure != null) {
                mine.completeExceptionally(failure);
            } else {
                mine.complete(link);
            }
        });
        return mine;
    }

    /** Redis, then PostgreSQL; keeps what it finds in the local cache (and what PostgreSQL found in Redis). */
    private CompletableFuture<CachedLink> lookUpAlone(Object key) {
        long epoch = local.epoch();
        CompletableFuture<CachedLink> shared = redis == null ? CompletableFuture.completedFuture(null) : redis.get(key);
        return shared.thenCompose(link -> {
            if (link != null) {
                redisHits.increment();
                local.fill(link, epoch);
                return CompletableFuture.completedFuture(link);
            }
            if (key instanceof Long id && !bound.covers(id)) {
                return bound.refreshed().thenCompose(highest -> id > highest ? absent(key, epoch) : fromPostgres(key, epoch));
            }
            return fromPostgres(key, epoch);
        });
    }

    private CompletableFuture<CachedLink> absent(Object key, long epoch) {
        negativeHits.increment();
        CachedLink absent = CachedLink.absent(key);
        local.fill(absent, epoch);
        return CompletableFuture.completedFuture(absent);
    }

    private CompletableFuture<CachedLink> fromPostgres(Object key, long epoch) {
        return executor.run(() -> postgres.find(key)).thenApply(row -> {
            postgresReads.increment();
            CachedLink link = row == null ? CachedLink.absent(key) : row.toCached(redirectStatus);
            local.fill(link, epoch);
            if (redis != null && row != null) {
                redis.fill(key, link);
            }
            return link;
        });
    }

    /** {@code GET /api/links/{code}}. */
    void read(Request request, Deferred response) {
        if (!auth.authorized(request)) {
            response.complete(Errors.UNAUTHORIZED);
            return;
        }
        Object key = keys.keyOf(new RequestCode(request));
        if (key == null) {
            response.complete(Errors.NOT_FOUND);
            return;
        }
        answerLater(response, () -> {
            LinkRow row = postgres.find(key);
            if (row == null) {
                return Errors.NOT_FOUND;
            }
            return row.deletedAt() >= 0 ? Errors.GONE : LinkJson.answer(200, json -> keys.writeLink(json, row));
        });
    }

    /** {@code GET /api/links?after=<code>&limit=<n>}: live links in id order, with the code to go on from. */
    void list(Request request, Deferred response) {
        if (!auth.authorized(request)) {
            response.complete(Errors.UNAUTHORIZED);
            return;
        }
        PageQuery query;
        try {
            query = PageQuery.parse(request.query(), DEFAULT_PAGE, MAX_PAGE);
        } catch (PageQuery.Invalid e) {
            response.complete(Errors.error(400, "invalid_query", e.getMessage()));
            return;
        }
        Object afterKey = query.after() == null ? null : keys.keyOf(CodeSpan.of(query.after()));
        if (query.after() != null && afterKey == null) {
            response.complete(PageQuery.NOT_A_LINK);
            return;
        }
        answerLater(response, () -> {
            long afterId = -1;
            if (afterKey != null) {
                LinkRow after = postgres.find(afterKey);
                if (after == null) {
                    return PageQuery.NOT_A_LINK;
                }
                afterId = after.id();
            }
            List<LinkRow> rows = postgres.page(afterId, query.limit() + 1);
            boolean more = rows.size() > query.limit();
            List<LinkRow> page = more ? rows.subList(0, query.limit()) : rows;
            return LinkJson.answer(200, json -> {
                json.writeStartObject();
                json.writeArrayFieldStart("links");
                for (LinkRow row : page) {
                    keys.writeLink(json, row);
                }
                json.writeEndArray();
                if (more) {
                    LinkRow last = page.getLast();
                    json.writeStringField("next", keys.codeOf(last.id(), last.name()));
                } else {
                    json.writeNullField("next");
                }
                json.writeEndObject();
            });
        });
    }

    /** {@code GET /api/stats}: counted in PostgreSQL now (a scan of the links table). */
    void stats(Request request, Deferred response) {
        if (!auth.authorized(request)) {
            response.complete(Errors.UNAUTHORIZED);
            return;
        }
        long uptime = (clock.millis() - startedAt) / 1000;
        answerLater(response, () -> {
            long[] counts = postgres.liveLinksAndVisits();
            return LinkJson.answer(200, json -> {
                json.writeStartObject();
                json.writeNumberField("links", counts[0]);
                json.writeNumberField("capacity", keys.capacity());
                json.writeNumberField("visits", counts[1]);
                json.writeNumberField("uptime_s", uptime);
                json.writeEndObject();
            });
        });
    }

    /** Runs {@code call} on the executor once the visits are folded, and answers with its response. */
    private void answerLater(Deferred response, LookupExecutor.SqlCall<Response> call) {
        afterVisitsFolded.accept(() -> executor.run(call).whenComplete((answer, failure) ->
            response.complete(failure == null ? answer : LookupExecutor.answerTo(failure))));
    }

    long localHits() {
        return localHits.sum();
    }

    long redisHits() {
        return redisHits.sum();
    }

    long postgresReads() {
        return postgresReads.sum();
    }

    long negativeHits() {
        return negativeHits.sum();
    }
}
