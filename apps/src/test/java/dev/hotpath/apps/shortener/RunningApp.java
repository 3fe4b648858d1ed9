package dev.hotpath.apps.shortener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.apps.App;
import dev.hotpath.http.HttpServer;
import dev.hotpath.http.ServerConfig;
import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.regex.Matcher;

/** A shortener a test serves on a port of its own (a scale-out node or an embedded one), and what tests ask it. */
record RunningApp(App app, HttpServer server, Path createdKeyFile) implements AutoCloseable {
    static RunningApp start(ClusterConfig config, Clock clock) {
        PrometheusRegistry registry = new PrometheusRegistry();
        ClusterShortenerApp app = ClusterShortenerApp.open(config, registry);
        return serve(app, registry, clock, app.createdKeyFile());
    }

    static RunningApp start(ShortenerConfig config) {
        PrometheusRegistry registry = new PrometheusRegistry();
        ShortenerApp app = ShortenerApp.open(config, registry);
        return serve(app, registry, config.clock(), app.createdKeyFile());
    }

    private static RunningApp serve(App app, PrometheusRegistry registry, Clock clock, Path createdKeyFile) {
        return new RunningApp(app, HttpServer.start(ServerConfig.of(new InetSocketAddress("127.0.0.1", 0))
            .withMetrics(registry).withClock(clock), app.routes()), createdKeyFile);
    }

    /** Creates a link with {@code body}; its code. */
    String create(String body, String key) {
        RawResponse created = call("POST", "/api/links", body, key);
        assertThat(created.status()).as(created.bodyText()).isEqualTo(201);
        Matcher code = ShortenerContract.CODE.matcher(created.bodyText());
        assertThat(code.find()).isTrue();
        return code.group(1);
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

    @Override
    public void close() {
        server.close(Duration.ofSeconds(5));
        app.close();
    }
}
