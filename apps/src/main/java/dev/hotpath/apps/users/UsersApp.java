package dev.hotpath.apps.users;

import dev.hotpath.http.HeaderName;
import dev.hotpath.http.MetricsEndpoint;
import dev.hotpath.http.Request;
import dev.hotpath.http.Response;
import dev.hotpath.http.Routes;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.charset.StandardCharsets;

/**
 * The users app, first part: the engine-comparison endpoints. {@code GET /ping} is scenario S1 of the
 * HTTP benchmark suite (the cheapest possible answer, one constant response, no allocation);
 * {@code POST /echo} returns the body with the content type it came with.
 */
public final class UsersApp {
    /** The echo body limit. */
    public static final int MAX_ECHO_BYTES = 64 * 1024;

    private static final Response PONG = Response.of(200, "text/plain", "pong".getBytes(StandardCharsets.US_ASCII));

    private UsersApp() {
    }

    public static Routes routes(PrometheusRegistry metrics) {
        return Routes.builder()
            .get("/ping", request -> PONG)
            .post("/echo", MAX_ECHO_BYTES, UsersApp::echo)
            .get("/metrics", new MetricsEndpoint(metrics))
            .build();
    }

    private static Response echo(Request request) {
        return Response.builder(200).body(request.header(HeaderName.CONTENT_TYPE), request.bodyBytes());
    }
}
