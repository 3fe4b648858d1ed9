package dev.hotpath.bench.peers;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * The users routes of the Helidon peer, an {@link HttpService} as Helidon SE's guides write one. Each
 * handler runs on the request's virtual thread and calls the store directly, blocking or not.
 */
final class HelidonUsersService implements HttpService {
    private static final byte[] EMPTY = new byte[0];

    private final UsersApi api;

    HelidonUsersService(UsersApi api) {
        this.api = api;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/{id}", this::find)
            .get("/", this::page)
            .post("/", this::create);
    }

    private void find(ServerRequest req, ServerResponse res) {
        HelidonPeer.send(res, api.find(req.path().pathParameters().get("id")));
    }

    private void page(ServerRequest req, ServerResponse res) {
        HelidonPeer.send(res, api.page(req.query().first("limit").orElse(null), req.query().first("after").orElse(null)));
    }

    private void create(ServerRequest req, ServerResponse res) {
        byte[] body = req.content().hasEntity() ? req.content().as(byte[].class) : EMPTY;
        HelidonPeer.send(res, api.create(req.headers().first(HeaderNames.CONTENT_TYPE).orElse(null), body));
    }
}
