package dev.hotpath.apps.shortener.internal;

import dev.hotpath.http.Deferred;
import dev.hotpath.http.Request;
import dev.hotpath.http.Response;
import dev.hotpath.store.GroupCommitWriter;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The write side of the scale-out mode: create, bulk create, delete. Checked on the event loop as in
 * the embedded mode ({@link ApiKeyAuth}, {@link LinkRequests}), queued on the node's group-commit
 * writer ({@link PostgresLinkWrites}), answered after the commit. A taken alias is found by the
 * database's unique constraint, so it is answered 409 only after the commit too.
 *
 * <p>After a commit the node keeps what it wrote in its local cache, so a link it created is never
 * hidden by a negative entry here; a delete also writes a tombstone to Redis and tells the other nodes
 * ({@link RedisLinks#deleted}).
 */
final class ClusterWrites {
    private static final Response DELETED = Response.empty(204);

    private final GroupCommitWriter writer;
    private final PostgresLinkWrites writes;
    private final LinkKeys keys;
    private final LocalLinks local;
    private final RedisLinks redis;
    private final ApiKeyAuth auth;
    private final LinkRequests requests;
    private final Clock clock;
    private final int redirectStatus;

    /** @param redis null when the node runs without Redis */
    ClusterWrites(GroupCommitWriter writer, PostgresLinkWrites writes, LinkKeys keys, LocalLinks local,
                  RedisLinks redis, ApiKeyAuth auth, LinkRequests requests, Clock clock, int redirectStatus) {
        this.writer = writer;
        this.writes = writes;
        this.keys = keys;
        this.local = local;
        this.redis = redis;
        this.auth = auth;
        this.requests = requests;
        this.clock = clock;
        this.redirectStatus = redirectStatus;
    }

    /** {@code POST /api/links} (and the compatibility paths). */
    void create(Request request, Deferred response) {
        NewLink link = requests.createOf(request, auth, response);
        if (link == null) {
            return;
        }
        List<NewLink> one = List.of(link);
        boolean queued = writer.offer(writes.insert(one, new LinkStore.Outcome<>() {
            @Override
            public void stored(long[] ids) {
                response.complete(ids[0] < 0 ? Errors.ALIAS_TAKEN.response : created(remember(link, ids[0])));
            }

            @Override
            public void failed() {
                response.complete(Errors.STORE_FAILED.response);
            }
        }));
        if (!queued) {
            response.complete(Errors.OVERLOADED.response);
        }
    }

    /** {@code POST /api/links/bulk}: every valid item stored in one write; the answer in input order. */
    void bulkCreate(Request request, Deferred response) {
        Object[] results = requests.bulkOf(request, auth, response);
        if (results == null) {
            return;
        }
        List<NewLink> valid = new ArrayList<>();
        List<Integer> positions = new ArrayList<>();
        for (int i = 0; i < results.length; i++) {
            if (results[i] instanceof NewLink link) {
                valid.add(link);
                positions.add(i);
            }
        }
        if (valid.isEmpty()) {
            response.complete(bulkResults(results));
            return;
        }
        boolean queued = writer.offer(writes.insert(valid, new LinkStore.Outcome<>() {
            @Override
            public void stored(long[] ids) {
                for (int k = 0; k < ids.length; k++) {
                    results[positions.get(k)] = ids[k] < 0 ? Errors.ALIAS_TAKEN : remember(valid.get(k), ids[k]);
                }
                response.complete(bulkResults(results));
            }

            @Override
            public void failed() {
                positions.forEach(k -> results[k] = Errors.STORE_FAILED);
                response.complete(bulkResults(results));
            }
        }));
        if (!queued) {
            positions.forEach(k -> results[k] = Errors.OVERLOADED);
            response.complete(bulkResults(results));
        }
    }

    /** {@code DELETE /api/links/{code}}: 204 once stored, 410 when it was gone already, 404 when it never was. */
    void delete(Request request, Deferred response) {
        if (!auth.authorized(request)) {
            response.complete(Errors.UNAUTHORIZED);
            return;
        }
        Object key = keys.keyOf(new RequestCode(request));
        if (key == null) {
            response.complete(Errors.NOT_FOUND);
            return;
        }
        boolean queued = writer.offer(writes.delete(key, clock.millis(), new LinkStore.Outcome<>() {
            @Override
            public void stored(PostgresLinkWrites.Deleted deleted) {
                switch (deleted.outcome()) {
                    case DELETED -> {
                        CachedLink tombstone = deleted.row().toCached(redirectStatus);
                        local.deleted(tombstone);
                        if (redis != null) {
                            redis.deleted(key, tombstone);
                        }
                        response.complete(DELETED);
                    }
                    case ALREADY_GONE -> response.complete(Errors.GONE);
                    case NOT_FOUND -> response.complete(Errors.NOT_FOUND);
                }
            }

            @Override
            public void failed() {
                response.complete(Errors.STORE_FAILED.response);
            }
        }));
        if (!queued) {
            response.complete(Errors.OVERLOADED.response);
        }
    }

    /** Keeps a link this node just stored in its local cache; the row as the API shows it. */
    private LinkRow remember(NewLink link, long id) {
        LinkRow row = new LinkRow(id, link.name(), link.isProtected(), link.url(), link.createdAt(), link.expiresAt(),
            -1, 0);
        local.created(row.toCached(redirectStatus));
        return row;
    }

    private Response created(LinkRow row) {
        return LinkJson.created(keys.codeOf(row.id(), row.name()), json -> keys.writeLink(json, row));
    }

    private Response bulkResults(Object[] results) {
        return LinkJson.bulkAnswer(results, (json, row) -> keys.writeLink(json, (LinkRow) row));
    }
}
