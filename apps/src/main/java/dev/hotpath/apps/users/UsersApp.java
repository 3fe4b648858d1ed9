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
 * {@code POST /echo} returns the body with the content type it came with. It holds no state, so
 * draining and closing have nothing to do beyond turning readiness off.
 */
public final class UsersApp implements App {
    /** The echo body limit. */
    public static final int MAX_ECHO_BYTES = 64 * 1024;

    private static final Response PONG = Response.of(200, "text/plain", "pong".getBytes(StandardCharsets.US_ASCII));

    private final PrometheusRegistry metrics;
    private volatile boolean draining;

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
    public boolean ready() {
        return !draining;
    }

    @Override
    public void beginDrain() {
        draining = true;
    }

    @Override
    public void close() {
        draining = true;
    }

    private static Response echo(Request request) {
        return Response.builder(200).body(request.header(HeaderName.CONTENT_TYPE), request.bodyBytes());
    }
}
