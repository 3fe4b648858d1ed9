package dev.hotpath.apps.users;

import dev.hotpath.apps.App;
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
 * {@code POST /echo} returns the body with the content type it came with. It holds no state and has
 * no readiness endpoint, so draining and closing have nothing to do.
 */
public final class UsersApp implements App {
    /** The echo body limit. */
    public static final int MAX_ECHO_BYTES = 64 * 1024;

    private static final Response PONG = Response.of(200, "text/plain", "pong".getBytes(StandardCharsets.US_ASCII));

    private final PrometheusRegistry metrics;

    public UsersApp(PrometheusRegistry metrics) {
        this.metrics = metrics;
    }

    @Override
    public Routes routes() {
        return Routes.builder()
            .get("/ping", request -> PONG)
            .post("/echo", MAX_ECHO_BYTES, UsersApp::echo)
            .get("/metrics", new MetricsEndpoint(metrics))
            .build();
    }

    @Override
    public void beginDrain() {
    }

    @Override
    public void close() {
    }

    private static Response echo(Request request) {
        return Response.builder(200).body(request.header(HeaderName.CONTENT_TYPE), request.bodyBytes());
    }
}
