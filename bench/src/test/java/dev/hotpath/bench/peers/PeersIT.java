package dev.hotpath.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every peer of the engine comparison suite, started in-process on a free port, answers the users API
 * of docs/ENGINES.md byte for byte: the bodies expected here are written out by hand, not by the
 * peers' {@link UserJson}. Each test runs against each peer and store the suite uses (Netty from
 * memory; Vert.x and Helidon from memory and from SQLite). The clock is fixed, so a created user's
 * {@code created_at} is known; the access log is read after the peer closed, when every line is out.
 */
class PeersIT {
    private static final String TOKEN = "test-token-aaaaaaaaaaaaaaaaaaaa";
    private static final Instant NOW = Instant.parse("2026-12-01T10:15:30.750Z");
    private static final Pattern MADE_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final String UNAUTHORIZED =
        "{\"error\":\"unauthorized\",\"message\":\"a valid bearer token is required\"}";
    private static final String NOT_FOUND = "{\"error\":\"not_found\",\"message\":\"no user with this id\"}";
    private static final String INVALID_JSON = "{\"error\":\"invalid_json\",\"message\":\"the body must be one JSON object\"}";

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @TempDir
    Path dir;

    private final List<RunningPeer> started = new ArrayList<>();

    @AfterEach
    void stopPeers() {
        started.forEach(RunningPeer::close);
    }

    @AfterAll
    static void closeClient() {
        CLIENT.close();
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"netty, memory", "vertx, memory", "vertx, sqlite", "helidon, memory", "helidon, sqlite"})
    void answersPingWithPong(String name, String store) throws Exception {
        int port = start(name, store);

        HttpResponse<String> ping = send(get(port, "/ping"));

        assertThat(ping.statusCode()).isEqualTo(200);
        assertThat(ping.headers().firstValue("content-type")).hasValue("text/plain");
        assertThat(ping.body()).isEqualTo("pong");
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"netty, memory", "vertx, memory", "vertx, sqlite", "helidon, memory", "helidon, sqlite"})
    void readsAPreloadedUserByteForByte(String name, String store) throws Exception {
        int port = start(name, store);

        HttpResponse<String> user = send(authorized(port, "/api/users/7"));

        assertThat(user.statusCode()).isEqualTo(200);
        assertThat(user.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(user.body()).isEqualTo(preloaded(7));
        assertThat(send(authorized(port, "/api/users/10000")).body()).isEqualTo(preloaded(10_000));
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"netty, memory", "vertx, memory", "vertx, sqlite", "helidon, memory", "helidon, sqlite"})
    void refusesAMissingMalformedOrWrongToken(String name, String store) throws Exception {
        int port = start(name, store);
        List<HttpRequest.Builder> refused = List.of(
            get(port, "/api/users/7"),
            get(port, "/api/users/7").header("Authorization", "Bearer test-token-aaaaaaaaaaaaaaaaaaab"),
            get(port, "/api/users/7").header("Authorization", "Bearer " + TOKEN + "a"),
            get(port, "/api/users/7").header("Authorization", "Basic " + TOKEN),
            get(port, "/api/users/7").header("Authorization", TOKEN),
            get(port, "/api/users").header("Authorization", "Bearer"));

        for (HttpRequest.Builder request : refused) {
            HttpResponse<String> answer = send(request);
            assertThat(answer.statusCode()).as(request.build().headers().toString()).isEqualTo(401);
            assertThat(answer.headers().firstValue("www-authenticate")).hasValue("Bearer");
            assertThat(answer.body()).isEqualTo(UNAUTHORIZED);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"netty, memory", "vertx, memory", "vertx, sqlite", "helidon, memory", "helidon, sqlite"})
    void echoesAValidRequestIdAndMakesOneOtherwise(String name, String store) throws Exception {
        int port = start(name, store);
        String longest = "a".repeat(64);

        assertThat(requestId(authorized(port, "/api/users/7").header("X-Request-Id", "req-1.A_b"))).isEqualTo("req-1.A_b");
        assertThat(requestId(authorized(port, "/api/users/7").header("X-Request-Id", longest))).isEqualTo(longest);
        assertThat(requestId(get(port, "/api/users/7").header("X-Request-Id", "refused-1"))).isEqualTo("refused-1");
        String made = requestId(authorized(port, "/api/users/7"));
        String instead = requestId(authorized(port, "/api/users/7").header("X-Request-Id", "not valid!"));
        String tooLong = requestId(authorized(port, "/api/users/7").header("X-Request-Id", longest + "a"));

        assertThat(List.of(made, instead, tooLong)).allMatch(id -> MADE_ID.matcher(id).matches()).doesNotHaveDuplicates();
        assertThat(instead).isNotEqualTo("not valid!");
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"netty, memory", "vertx, memory", "vertx, sqlite", "helidon, memory", "helidon, sqlite"})
    void answersNotFoundForAnUnknownOrMalformedId(String name, String store) throws Exception {
        int port = start(name, store);

        for (String id : List.of("0", "10001", "abc", "-1", "+7", "9223372036854775808", "7.0")) {
            HttpResponse<String> answer = send(authorized(port, "/api/users/" + id));
            assertThat(answer.statusCode()).as(id).isEqualTo(404);
            assertThat(answer.body()).as(id).isEqualTo(NOT_FOUND);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"netty, memory", "vertx, memory", "vertx, sqlite", "helidon, memory", "helidon, sqlite"})
    void listsPagesByteForByte(String name, String store) throws Exception {
        int port = start(name, store);

        HttpResponse<String> first = send(authorized(port, "/api/users?limit=20"));

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(first.body()).isEqualTo(page(1, 20, "20"));
        assertThat(send(authorized(port, "/api/users")).body()).isEqualTo(page(1, 20, "20"));
        assertThat(send(authorized(port, "/api/users?after=20&limit=3")).body()).isEqualTo(page(21, 23, "23"));
        assertThat(send(authorized(port, "/api/users?limit=2&after=9998")).body()).isEqualTo(page(9999, 10_000, "10000"));
        assertThat(send(authorized(port, "/api/users?limit=5&after=9998")).body()).isEqualTo(page(9999, 10_000, "null"));
        assertThat(send(authorized(port, "/api/users?after=10000")).body()).isEqualTo("{\"users\":[],\"next\":null}");
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"netty, memory", "vertx, memory", "vertx, sqlite", "helidon, memory", "helidon, sqlite"})
    void refusesALimitOrAfterOutOfRange(String name, String store) throws Exception {
        int port = start(name, store);

        for (String query : List.of("limit=0", "limit=101", "limit=abc", "limit=", "limit=-1", "after=-1",
            "after=x", "after=9223372036854775808")) {
            HttpResponse<String> answer = send(authorized(port, "/api/users?" + query));
            assertThat(answer.statusCode()).as(query).isEqualTo(400);
            assertThat(answer.body()).as(query).startsWith("{\"error\":\"invalid_query\",\"message\":\"");
        }
        assertThat(send(authorized(port, "/api/users?limit=100")).statusCode()).isEqualTo(200);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"netty, memory", "vertx, memory", "vertx, sqlite", "helidon, memory", "helidon, sqlite"})
    void createsUsersAndReadsThemBack(String name, String store) throws Exception {
        int port = start(name, store);
        String ada = "{\"id\":10001,\"name\":\"Ada\",\"email\":\"ada@example.com\",\"created_at\":\"2026-12-01T10:15:30Z\"}";

        HttpResponse<String> created = send(post(port, "application/json", "{\"name\":\"Ada\",\"email\":\"ada@example.com\"}"));

        assertThat(created.statusCode()).isEqualTo(201);
        assertThat(created.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(created.body()).isEqualTo(ada);
        assertThat(send(authorized(port, "/api/users/10001")).body()).isEqualTo(ada);
        HttpResponse<String> second = send(post(port, null, " { \"email\" : \"b@c\", \"name\" : \"Bob \\\"B\\\" ✓\" } "));
        assertThat(second.statusCode()).isEqualTo(201);
        String bob = "{\"id\":10002,\"name\":\"Bob \\\"B\\\" ✓\",\"email\":\"b@c\",\"created_at\":\"2026-12-01T10:15:30Z\"}";
        assertThat(second.body()).isEqualTo(bob);
        assertThat(send(post(port, "application/json; charset=utf-8", "{\"name\":\"C\",\"email\":\"c@d\"}")).statusCode())
            .isEqualTo(201);
        assertThat(send(authorized(port, "/api/users?after=10000")).body())
            .isEqualTo("{\"users\":[" + ada + "," + bob + ","
                + "{\"id\":10003,\"name\":\"C\",\"email\":\"c@d\",\"created_at\":\"2026-12-01T10:15:30Z\"}],\"next\":null}");
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"netty, memory", "vertx, memory", "vertx, sqlite", "helidon, memory", "helidon, sqlite"})
    void refusesABodyThatIsNotOneJsonObject(String name, String store) throws Exception {
        int port = start(name, store);

        for (String body : List.of("", "{", "[]", "\"name\"", "{} {}", "{\"name\":\"a\",\"email\":\"a@b\"} x", "nope",
            "{\"name\":\"a\" \"email\":\"a@b\"}", "{\"name\":\"a\",\"email\":{\"x\":}}")) {
            HttpResponse<String> answer = send(post(port, "application/json", body));
            assertThat(answer.statusCode()).as(body).isEqualTo(400);
            assertThat(answer.body()).as(body).isEqualTo(INVALID_JSON);
        }
        assertThat(send(authorized(port, "/api/users/10001")).statusCode()).isEqualTo(404);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"netty, memory", "vertx, memory", "vertx, sqlite", "helidon, memory", "helidon, sqlite"})
    void refusesWrongFieldsAsInvalidUser(String name, String store) throws Exception {
        int port = start(name, store);
        String longName = "n".repeat(101);
        String longEmail = "a@" + "b".repeat(253);

        for (String body : List.of("{}", "{\"name\":\"a\"}", "{\"email\":\"a@b\"}",
            "{\"name\":\"a\",\"email\":\"a@b\",\"admin\":true}", "{\"name\":1,\"email\":\"a@b\"}",
            "{\"name\":null,\"email\":\"a@b\"}", "{\"name\":\"a\",\"email\":[\"a@b\"]}", "{\"name\":\"\",\"email\":\"a@b\"}",
            "{\"name\":\"" + longName + "\",\"email\":\"a@b\"}", "{\"name\":\"a\",\"email\":\"ab\"}",
            "{\"name\":\"a\",\"email\":\"abc\"}", "{\"name\":\"a\",\"email\":\"@ab\"}", "{\"name\":\"a\",\"email\":\"ab@\"}",
            "{\"name\":\"a\",\"email\":\"" + longEmail + "\"}", "{\"name\":\"a\",\"name\":\"b\",\"email\":\"a@b\"}")) {
            HttpResponse<String> answer = send(post(port, "application/json", body));
            assertThat(answer.statusCode()).as(body).isEqualTo(422);
            assertThat(answer.body()).as(body).startsWith("{\"error\":\"invalid_user\",\"message\":\"");
        }
        assertThat(send(post(port, "application/json", "{\"name\":\"" + "n".repeat(100) + "\",\"email\":\""
            + longEmail.substring(0, 254) + "\"}")).statusCode()).isEqualTo(201);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"netty, memory", "vertx, memory", "vertx, sqlite", "helidon, memory", "helidon, sqlite"})
    void refusesAnotherContentTypeAndABodyOverFourKibibytes(String name, String store) throws Exception {
        int port = start(name, store);

        HttpResponse<String> text = send(post(port, "text/plain", "{\"name\":\"a\",\"email\":\"a@b\"}"));
        HttpResponse<String> large = send(post(port, "application/json",
            "{\"name\":\"a\",\"email\":\"a@b\",\"pad\":\"" + "x".repeat(4_096) + "\"}"));

        assertThat(text.statusCode()).isEqualTo(415);
        assertThat(large.statusCode()).isEqualTo(413);
        assertThat(send(authorized(port, "/api/users/10001")).statusCode()).isEqualTo(404);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"vertx", "helidon"})
    void keepsACreatedUserAcrossARestart(String name) throws Exception {
        RunningPeer first = RunningPeer.start(config(name, "sqlite"), fixedClock());
        String ada;
        try (first) {
            HttpResponse<String> created = send(post(first.port(), "application/json", "{\"name\":\"Ada\",\"email\":\"a@b\"}"));
            assertThat(created.statusCode()).isEqualTo(201);
            ada = created.body();
        }

        int port = start(name, "sqlite");

        assertThat(send(authorized(port, "/api/users/10001")).body()).isEqualTo(ada);
        assertThat(send(authorized(port, "/api/users/7")).body()).isEqualTo(preloaded(7));
        assertThat(send(post(port, "application/json", "{\"name\":\"Bob\",\"email\":\"b@c\"}")).body())
            .startsWith("{\"id\":10002,");
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"netty, memory", "vertx, memory", "vertx, sqlite", "helidon, memory", "helidon, sqlite"})
    void writesOneAccessLogLinePerApiRequest(String name, String store) throws Exception {
        RunningPeer peer = RunningPeer.start(config(name, store), fixedClock());
        List<String> expected = new ArrayList<>();
        try (peer) {
            int port = peer.port();
            send(get(port, "/ping"));
            for (int i = 0; i < 5; i++) {
                send(authorized(port, "/api/users/" + (i + 1)).header("X-Request-Id", "log-" + i));
                expected.add("log-" + i + " GET /api/users/" + (i + 1) + " 200");
            }
            String made = requestId(get(port, "/api/users/9"));
            expected.add(made + " GET /api/users/9 401");
            send(post(port, "application/json", "{\"name\":\"a\",\"email\":\"a@b\"}").header("X-Request-Id", "log-post"));
            expected.add("log-post POST /api/users 201");
            send(authorized(port, "/api/users?limit=0").header("X-Request-Id", "log-page"));
            expected.add("log-page GET /api/users 400");
        }

        List<String> lines = Files.readAllLines(dir.resolve("access.log"));

        Pattern line = Pattern.compile("(\\d{13}) (\\S+ \\S+ \\S+ \\d{3}) (\\d+)");
        assertThat(lines).allMatch(l -> line.matcher(l).matches());
        assertThat(lines.stream().map(l -> l.substring(l.indexOf(' ') + 1, l.lastIndexOf(' '))))
            .containsExactlyInAnyOrderElementsOf(expected);
    }

    private int start(String name, String store) throws Exception {
        RunningPeer peer = RunningPeer.start(config(name, store), fixedClock());
        started.add(peer);
        return peer.port();
    }

    private PeerConfig config(String name, String store) {
        boolean sqlite = store.equals("sqlite");
        return new PeerConfig(name, 0, sqlite ? PeerConfig.Store.SQLITE : PeerConfig.Store.MEMORY,
            sqlite ? dir.resolve("data") : null, dir.resolve("access.log"), TOKEN);
    }

    private static Clock fixedClock() {
        return Clock.fixed(NOW, ZoneOffset.UTC);
    }

    private static HttpRequest.Builder get(int port, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET();
    }

    private static HttpRequest.Builder authorized(int port, String path) {
        return get(port, path).header("Authorization", "Bearer " + TOKEN);
    }

    /** A create with this content type ({@code null}: none) and body. */
    private static HttpRequest.Builder post(int port, String contentType, String body) {
        HttpRequest.Builder post = authorized(port, "/api/users")
            .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        return contentType == null ? post : post.header("Content-Type", contentType);
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static String requestId(HttpRequest.Builder request) throws IOException, InterruptedException {
        return send(request).headers().firstValue("x-request-id").orElseThrow();
    }

    private static String preloaded(long id) {
        return "{\"id\":" + id + ",\"name\":\"user-" + id + "\",\"email\":\"user-" + id
            + "@example.com\",\"created_at\":\"2026-01-01T00:00:00Z\"}";
    }

    private static String page(long from, long to, String next) {
        return LongStream.rangeClosed(from, to).mapToObj(PeersIT::preloaded)
            .collect(Collectors.joining(",", "{\"users\":[", "],\"next\":" + next + "}"));
    }
}
