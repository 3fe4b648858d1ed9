package dev.hotpath.apps.shortener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.HttpServer;
import dev.hotpath.http.ServerConfig;
import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import dev.hotpath.store.Durability;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Whatever a client sends as a create body, URL, alias or code, the answer is a 2xx, 3xx or a clear
 * 4xx: never a 500. Runs against a real server on a temporary data dir.
 */
class ShortenerInputPropertyIT {
    private static Path dir;
    private static ShortenerApp app;
    private static HttpServer server;
    private static String key;

    @BeforeContainer
    static void start() throws Exception {
        dir = Files.createTempDirectory("shortener-fuzz");
        PrometheusRegistry registry = new PrometheusRegistry();
        app = ShortenerApp.open(new ShortenerConfig(dir, "http://sho.rt", "scrambled", Durability.NORMAL, 100_000, 256,
            302, Set.of(), null, Clock.systemUTC()), registry);
        server = HttpServer.start(ServerConfig.of(new InetSocketAddress("127.0.0.1", 0)).withMetrics(registry), app.routes());
        key = Files.readString(app.createdKeyFile()).strip();
    }

    @AfterContainer
    static void stop() throws Exception {
        server.close();
        app.close();
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Property(tries = 300, seed = "20261130")
    void anyCreateBodyGetsAnAnswerBelow500(@ForAll("bodies") String body) {
        RawResponse response = post("/api/links", body);
        assertThat(response.status()).as(body).isIn(201, 400, 409);
        if (response.status() == 400) {
            assertThat(response.bodyText()).startsWith("{\"error\":\"");
        }
    }

    @Property(tries = 300, seed = "20261130")
    void anyUrlStringIsCreatedOrRefusedAsInvalid(@ForAll("urls") String url) {
        String body = "{\"url\":" + jsonString(url) + "}";
        RawResponse response = post("/api/links", body);
        assertThat(response.status()).as(url).isIn(201, 400);
        if (response.status() == 201) {
            String location = response.bodyText().replaceAll(".*\"long_url\":\"([^\"]*)\".*", "$1");
            assertThat(location.chars().allMatch(c -> c > 0x20 && c < 0x7F)).as(location).isTrue();
        }
    }

    @Property(tries = 300, seed = "20261130")
    void anyAliasIsCreatedRefusedOrTaken(@ForAll("aliases") String alias) {
        RawResponse response = post("/api/links", "{\"url\":\"https://a.example/\",\"alias\":" + jsonString(alias) + "}");
        assertThat(response.status()).as(alias).isIn(201, 400, 409);
    }

    @Property(tries = 300, seed = "20261130")
    void anyCodeResolvesOrIsNotFound(@ForAll("codes") String code) {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse response = client.send("GET /" + code + " HTTP/1.1\r\nHost: a\r\n\r\n").read();
            assertThat(response.status()).as(code).isIn(302, 404, 410);
        }
    }

    @Provide
    Arbitrary<String> bodies() {
        Arbitrary<String> fragments = Arbitraries.of("{", "}", "[", "]", ",", ":", "\"url\"", "\"alias\"", "\"protected\"",
            "\"expires_at\"", "\"https://x.example/\"", "true", "null", "42", "\"2030-01-01T00:00:00Z\"", "\"\\u0000\"", "\"é\"",
            "\"x\"", " ");
        return fragments.list().ofMaxSize(14).map(list -> String.join("", list));
    }

    @Provide
    Arbitrary<String> urls() {
        Arbitrary<String> pieces = Arbitraries.of("https://", "http://", "HTTP://", "ftp://", "example.com", "bücher.de", "[::1]",
            ":8080", ":99999", ":", "/", "?", "#", "%", "%2F", "%zz", "@", "\\", " ", "\t", "\r\n", "é", "😀", "a", "..", "-",
            "_", "\"", "<>", "\u0085", "\u2028");
        return pieces.list().ofMinSize(1).ofMaxSize(10).map(list -> String.join("", list));
    }

    @Provide
    Arbitrary<String> aliases() {
        return Arbitraries.strings().withChars("abcXYZ019_-. /é%\"\\").ofMinLength(0).ofMaxLength(70);
    }

    @Provide
    Arbitrary<String> codes() {
        return Arbitraries.strings().withChars("abcXYZ019_-~.!$&'()*+,;=:@").ofMinLength(1).ofMaxLength(70);
    }

    private static RawResponse post(String path, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send(("POST " + path + " HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer " + key
                + "\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
            client.send(bytes);
            return client.read();
        }
    }

    private static String jsonString(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }
}
