package dev.hotpath.bench.peers;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;

/**
 * The Helidon SE 4 peer (scenarios S1 to S4): Helidon's own web server, which runs every request on
 * a virtual thread, so the SQLite store is called straight from the handler. The middleware are
 * routing filters in the users API's order (access log, request id, bearer auth), each passing
 * requests outside {@code /api/} straight on; the users routes are a {@link HelidonUsersService}
 * registered under {@code /api/users}. Helidon answers 413 itself past
 * {@link UsersApi#MAX_BODY_BYTES}.
 */
final class HelidonPeer implements Peer {
    static final HeaderName REQUEST_ID = HeaderNames.create(RequestIds.HEADER);

    private static final byte[] PONG = "pong".getBytes(StandardCharsets.US_ASCII);

    @Override
    public Running start(int port, UsersApi api, BearerAuth auth, AccessLog accessLog) {
        WebServer server = WebServer.builder()
            .host("127.0.0.1")
            .port(port)
            .maxPayloadSize(UsersApi.MAX_BODY_BYTES)
            .routing(routing -> routes(routing, api, auth, accessLog))
            .build()
            .start();
        return new Running() {
            @Override
            public int port() {
                return server.port();
            }

            @Override
            public void close() {
                server.stop();
            }
        };
    }

    private static void routes(HttpRouting.Builder routing, UsersApi api, BearerAuth auth, AccessLog accessLog) {
        routing.addFilter((chain, req, res) -> {
            if (passesBy(chain, req)) {
                return;
            }
            long start = System.nanoTime();
            String path = req.path().rawPath(); // before routing makes it relative to the service
            chain.proceed();
            accessLog.record(res.headers().first(REQUEST_ID).orElse(""), req.prologue().method().text(), path,
                res.status().code(), start);
        });
        routing.addFilter((chain, req, res) -> {
            if (passesBy(chain, req)) {
                return;
            }
            res.header(REQUEST_ID, RequestIds.pick(req.headers().first(REQUEST_ID).orElse(null)));
            chain.proceed();
        });
        routing.addFilter((chain, req, res) -> {
            if (passesBy(chain, req)) {
                return;
            }
            if (auth.allows(req.headers().first(HeaderNames.AUTHORIZATION).orElse(null))) {
                chain.proceed();
            } else {
                res.header(HeaderNames.WWW_AUTHENTICATE, BearerAuth.CHALLENGE);
                send(res, Reply.UNAUTHORIZED);
            }
        });
        routing.get("/ping", (req, res) -> res.header(HeaderValues.CONTENT_TYPE_TEXT_PLAIN).send(PONG));
        routing.register("/api/users", new HelidonUsersService(api));
    }

    /** Lets a request outside {@code /api/} through a filter untouched; whether it did. */
    private static boolean passesBy(FilterChain chain, RoutingRequest req) {
        if (req.path().path().startsWith("/api/")) {
            return false;
        }
        chain.proceed();
        return true;
    }

    static void send(ServerResponse res, Reply reply) {
        res.status(reply.status()).header(HeaderValues.CONTENT_TYPE_JSON).send(reply.body());
    }
}
