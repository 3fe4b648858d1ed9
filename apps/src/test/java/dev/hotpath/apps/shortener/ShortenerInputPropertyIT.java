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
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Whatever a client sends as a create body, URL, alias or code, the answer is a 2xx, 3xx or a clear
 * 4xx: never a 500. Runs against a real server on a temporary data dir. Inputs come from seeded
 * generators, so every run sends the same {@value #CASES} inputs per property (plus the edge cases
 * listed first), and a failure names the input.
 */
class ShortenerInputPropertyIT {
    private static final long SEED = 20261130L;
    private static final int CASES = 300;
    private static final List<String> BODY_FRAGMENTS = List.of("{", "}", "[", "]", ",", ":", "\"url\"", "\"alias\"",
        "\"protected\"", "\"expires_at\"", "\"https://x.example/\"", "true", "null", "42", "\"2030-01-01T00:00:00Z\"",
        "\"\\u0000\"", "\"é\"", "\"x\"", " ");
    private static final List<String> URL_PIECES = List.of("https://", "http://", "HTTP://", "ftp://", "example.com",
        "bücher.de", "[::1]", ":8080", ":99999", ":", "/", "?", "#", "%", "%2F", "%zz", "@", "\\", " ", "\t", "\r\n", "é",
        "😀", "a", "..", "-", "_", "\"", "<>", "\u0085", "\u2028");
    private static final String ALIAS_CHARS = "abcXYZ019_-. /é%\"\\";
    private static final String CODE_CHARS = "abcXYZ019_-~.!$&'()*+,;=:@";

    private static Path dir;
    private static ShortenerApp app;
    private static HttpServer server;
    private static String key;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("shortener-fuzz");
        PrometheusRegistry registry = new PrometheusRegistry();
        app = ShortenerApp.open(new ShortenerConfig(dir, "http://sho.rt", "scrambled", Durability.NORMAL, 100_000, 256,
            302, Set.of(), null, true, Clock.systemUTC()), registry);
        server = HttpServer.start(ServerConfig.of(new InetSocketAddress("127.0.0.1", 0)).withMetrics(registry), app.routes());
        key = Files.readString(app.createdKeyFile()).strip();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        app.close();
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void anyCreateBodyGetsAnAnswerBelow500() {
        for (String body : inputs(List.of("", "{}", "[]"), random -> joined(random, BODY_FRAGMENTS, 0, 14))) {
            RawResponse response = post("/api/links", body);
            assertThat(response.status()).as(body).isIn(201, 400, 409);
            if (response.status() == 400) {
                assertThat(response.bodyText()).as(body).startsWith("{\"error\":\"");
            }
        }
    }

    @Test
    void anyUrlStringIsCreatedOrRefusedAsInvalid() {
        for (String url : inputs(List.of("https://", "😀"), random -> joined(random, URL_PIECES, 1, 10))) {
            String body = "{\"url\":" + jsonString(url) + "}";
            RawResponse response = post("/api/links", body);
            assertThat(response.status()).as(url).isIn(201, 400);
            if (response.status() == 201) {
                String location = response.bodyText().replaceAll(".*\"long_url\":\"([^\"]*)\".*", "$1");
                assertThat(location.chars().allMatch(c -> c > 0x20 && c < 0x7F)).as(url + " stored as " + location).isTrue();
            }
        }
    }

    @Test
    void anyAliasIsCreatedRefusedOrTaken() {
        for (String alias : inputs(List.of("", "abc"), random -> characters(random, ALIAS_CHARS, 0, 70))) {
            RawResponse response = post("/api/links", "{\"url\":\"https://a.example/\",\"alias\":" + jsonString(alias) + "}");
            assertThat(response.status()).as(alias).isIn(201, 400, 409);
        }
    }

    @Test
    void anyCodeResolvesOrIsNotFound() {
        for (String code : inputs(List.of("a", "@"), random -> characters(random, CODE_CHARS, 1, 70))) {
            try (RawHttpClient client = RawHttpClient.connect(server.port())) {
                RawResponse response = client.send("GET /" + code + " HTTP/1.1\r\nHost: a\r\n\r\n").read();
                assertThat(response.status()).as(code).isIn(302, 404, 410);
            }
        }
    }

    /** The edge cases, then {@value #CASES} inputs of {@code generator} from the fixed seed. */
    private static List<String> inputs(List<String> edgeCases, Function<SplittableRandom, String> generator) {
        SplittableRandom random = new SplittableRandom(SEED);
        List<String> inputs = new java.util.ArrayList<>(edgeCases);
        for (int i = 0; i < CASES; i++) {
            inputs.add(generator.apply(random));
        }
        return inputs;
    }

    /** From {@code min} to {@code max} pieces, each drawn from {@code pieces}, concatenated. */
    private static String joined(SplittableRandom random, List<String> pieces, int min, int max) {
        StringBuilder out = new StringBuilder();
        for (int n = random.nextInt(min, max + 1); n > 0; n--) {
            out.append(pieces.get(random.nextInt(pieces.size())));
        }
        return out.toString();
    }

    /** From {@code min} to {@code max} characters, each drawn from {@code alphabet}. */
    private static String characters(SplittableRandom random, String alphabet, int min, int max) {
        StringBuilder out = new StringBuilder();
        for (int n = random.nextInt(min, max + 1); n > 0; n--) {
            out.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return out.toString();
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
