package dev.hotpath.apps.shortener.internal;

import dev.hotpath.http.Deferred;
import dev.hotpath.http.Request;
import dev.hotpath.http.Response;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The write side of the shortener API: create, bulk create, delete. Each request is checked and
 * admitted on the event loop (key, media type, JSON, {@link LinkRequests}, {@link CreateAdmission}),
 * then queued on the {@link LinkStore}; it is answered only after the store has stored and published
 * it, and a store that is full answers 503 at once.
 */
final class LinkWrites {
    private static final Response DELETED = Response.empty(204);

    private final LinkStore store;
    private final LinkTable table;
    private final LinkIndex index;
    private final ApiKeyAuth auth;
    private final LinkRequests requests;
    private final CreateAdmission admission;
    private final Clock clock;

    LinkWrites(LinkStore store, LinkIndex index, ApiKeyAuth auth, LinkRequests requests, CreateAdmission admission,
               Clock clock) {
        this.store = store;
        this.table = store.table();
        this.index = index;
        this.auth = auth;
        this.requests = requests;
        this.admission = admission;
        this.clock = clock;
    }

    /** {@code POST /api/links} (and the compatibility paths). */
    void create(Request request, Deferred response) {
        NewLink link = requests.createOf(request, auth, response);
        if (link == null) {
            return;
        }
        Errors.Refusal refused = admission.admit(link);
        if (refused != null) {
            response.complete(refused.response);
            return;
        }
        List<NewLink> one = List.of(link);
        boolean queued = store.create(one, new LinkStore.Outcome<>() {
            @Override
            public void stored(int[] ids) {
                admission.stored(one);
                response.complete(created(ids[0]));
            }

            @Override
            public void failed() {
                admission.release(one);
                response.complete(Errors.STORE_FAILED.response);
            }
        });
        if (!queued) {
            admission.release(one);
            response.complete(Errors.OVERLOADED.response);
        }
    }

    /**
     * {@code POST /api/links/bulk}: up to {@value LinkJson#MAX_BULK} creates, every admitted one stored
     * together; the answer lists each item's result in input order.
     */
    void bulkCreate(Request request, Deferred response) {
        Object[] results = requests.bulkOf(request, auth, response);
        if (results == null) {
            return;
        }
        List<NewLink> admitted = new ArrayList<>();
        List<Integer> positions = new ArrayList<>();
        for (int i = 0; i < results.length; i++) {
            if (results[i] instanceof NewLink link) {
                Errors.Refusal refused = admission.admit(link);
                results[i] = refused;
                if (refused == null) {
                    admitted.add(link);
                    positions.add(i);
                }
            }
        }
        if (admitted.isEmpty()) {
            response.complete(bulkResults(results));
            return;
        }
        boolean queued = store.create(admitted, new LinkStore.Outcome<>() {
            @Override
            public void stored(int[] ids) {
                admission.stored(admitted);
                for (int k = 0; k < ids.length; k++) {
                    results[positions.get(k)] = ids[k];
                }
                response.complete(bulkResults(results));
            }

            @Override
            public void failed() {
                admission.release(admitted);
                positions.forEach(k -> results[k] = Errors.STORE_FAILED);
                response.complete(bulkResults(results));
            }
        });
        if (!queued) {
            admission.release(admitted);
            positions.forEach(k -> results[k] = Errors.OVERLOADED);
            response.complete(bulkResults(results));
        }
    }

    /** {@code DELETE /api/links/{code}}: 204 once stored, 410 when a concurrent delete won. */
    void delete(Request request, Deferred response) {
        if (!auth.authorized(request)) {
            response.complete(Errors.UNAUTHORIZED);
            return;
        }
        int id = index.find(new RequestCode(request));
        if (id < 0) {
            response.complete(Errors.NOT_FOUND);
        } else if ((table.flags(id) & LinkTable.DELETED) != 0) {
            response.complete(Errors.GONE);
        } else if (!store.delete(id, clock.millis(), new LinkStore.Outcome<>() {
            @Override
            public void stored(Boolean deletedNow) {
                response.complete(deletedNow ? DELETED : Errors.GONE);
            }

            @Override
            public void failed() {
                response.complete(Errors.STORE_FAILED.response);
            }
        })) {
            response.complete(Errors.OVERLOADED.response);
        }
    }

    private Response created(int id) {
        return LinkJson.created(index.codeOf(id), json -> index.writeLink(json, id));
    }

    /** The bulk answer: per item a created link's id (Integer) or its {@link Errors.Refusal}. */
    private Response bulkResults(Object[] results) {
        return LinkJson.bulkAnswer(results, (json, id) -> index.writeLink(json, (Integer) id));
    }
}
