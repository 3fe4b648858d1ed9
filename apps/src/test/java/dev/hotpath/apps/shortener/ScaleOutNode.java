package dev.hotpath.apps.shortener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.HttpServer;
import dev.hotpath.http.ServerConfig;
import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/** A scale-out node a test starts on a port of its own, and what tests ask it. */
record ScaleOutNode(ClusterShortenerApp app, HttpServer server) implements AutoCloseable {
    static ScaleOutNode start(ClusterConfig config, Clock clock) {
        PrometheusRegistry registry = new PrometheusRegistry();
        ClusterShortenerApp app = ClusterShortenerApp.open(config, registry);
        return new ScaleOutNode(app, HttpServer.start(ServerConfig.of(new InetSocketAddress("127.0.0.1", 0))
            .withMetrics(registry).withClock(clock), app.routes()));
    }

    RawResponse call(String method, String path) {
        return call(method, path, null, null);
    }

    /** One request on a new connection; {@code key} and {@code body} (JSON) when not null. */
    RawResponse call(String method, String path, String body, String key) {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            String request = method + " " + path + " HTTP/1.1\r\nHost: sho.rt\r\n"
                + (key == null ? "" : "Authorization: Bearer " + key + "\r\n")
                + (body == null ? "" : "Content-Type: application/json\r\nContent-Length: "
                    + body.getBytes(StandardCharsets.UTF_8).length + "\r\n")
                + "\r\n" + (body == null ? "" : body);
            client.send(request.getBytes(StandardCharsets.UTF_8));
            return client.read(method.equals("HEAD"));
        }
    }

    /** The value of an unlabelled metric, or -1 when the node does not report it. */
    double metric(String name) {
        for (String line : call("GET", "/metrics").bodyText().split("\n")) {
            if (line.startsWith(name + " ")) {
                return Double.parseDouble(line.substring(name.length() + 1).strip());
            }
        }
        return -1;
    }

    /** Waits until {@code condition} holds, failing after a generous bound (a hung test, not a slow one). */
    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    @Override
    public void close() {
        server.close(Duration.ofSeconds(5));
        app.close();
    }
}
