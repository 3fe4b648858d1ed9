package dev.hotpath.apps.users;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.HttpServer;
import dev.hotpath.http.ServerConfig;
import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The users API of docs/ENGINES.md on both stores, byte for byte where the contract fixes the bytes. */
class UsersApiIT {
    private static final String AUTH = "Authorization: Bearer " + UsersConfig.DEFAULT_TOKEN + "\r\n";
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T10:15:30.700Z"), ZoneOffset.UTC);

    @TempDir
    Path dir;

    private UsersApp app;
    private HttpServer server;

    private void start(UsersConfig.Store store) throws SQLException {
        try {
            Files.createDirectories(dir.resolve("data"));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        app = UsersApp.open(new UsersConfig(store, dir.resolve("data"), UsersConfig.DEFAULT_TOKEN,
            dir.resolve("access.log").toString(), CLOCK), new PrometheusRegistry());
        server = HttpServer.start(ServerConfig.of(new InetSocketAddress("127.0.0.1", 0)), app.routes());
    }

    private void stop() {
        server.close();
        app.close();
    }

    private static String user(long id) {
        return "{\"id\":" + id + ",\"name\":\"user-" + id + "\",\"email\":\"user-" + id
            + "@example.com\",\"created_at\":\"2026-01-01T00:00:00Z\"}";
    }

    private RawResponse get(RawHttpClient client, String target) {
        return client.send("GET " + target + " HTTP/1.1\r\nHost: h\r\n" + AUTH + "\r\n").read();
    }

    private RawResponse post(RawHttpClient client, String body, String extraHeaders) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return client.send(("POST /api/users HTTP/1.1\r\nHost: h\r\n" + AUTH + extraHeaders + "Content-Length: " + bytes.length
            + "\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8)).read();
    }

    @ParameterizedTest
    @EnumSource(UsersConfig.Store.class)
    void answersReadsByteForByteBehindTheChain(UsersConfig.Store store) throws SQLException {
        start(store);
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse one = get(client, "/api/users/7");
            assertThat(one.status()).isEqualTo(200);
            assertThat(one.header("Content-Type")).isEqualTo("application/json");
            assertThat(one.bodyText()).isEqualTo(user(7));
            assertThat(one.header("X-Request-Id")).matches("[0-9a-f]{12}-[0-9a-f]{12}");
            assertThat(get(client, "/api/users/10000").bodyText()).isEqualTo(user(10000));
            for (String missing : List.of("0", "10001", "-1", "abc", "99999999999999999999", "1e3")) {
                RawResponse none = get(client, "/api/users/" + missing);
                assertThat(none.status()).as(missing).isEqualTo(404);
                assertThat(none.bodyText()).isEqualTo("{\"error\":\"not_found\",\"message\":\"no user with this id\"}");
            }
            String first20 = IntStream.rangeClosed(1, 20).mapToObj(UsersApiIT::user).collect(Collectors.joining(","));
            assertThat(get(client, "/api/users?limit=20").bodyText()).isEqualTo("{\"users\":[" + first20 + "],\"next\":20}");
            assertThat(get(client, "/api/users").bodyText()).isEqualTo("{\"users\":[" + first20 + "],\"next\":20}");
            assertThat(get(client, "/api/users?after=9998&limit=5").bodyText())
                .isEqualTo("{\"users\":[" + user(9999) + "," + user(10000) + "],\"next\":null}");
            assertThat(get(client, "/api/users?after=9223372036854775807").bodyText()).isEqualTo("{\"users\":[],\"next\":null}");
            assertThat(get(client, "/api/users?x&limit=1&&after=2&limit2=9&").bodyText())
                .isEqualTo("{\"users\":[" + user(3) + "],\"next\":3}");
            for (String bad : List.of("limit=0", "limit=101", "limit=x", "after=-1", "limit=5&limit=6", "limit=", "limit",
                "after=1&after=1", "after=9223372036854775808", "limit=1=2")) {
                RawResponse refused = get(client, "/api/users?" + bad);
                assertThat(refused.status()).as(bad).isEqualTo(400);
                assertThat(refused.bodyText()).as(bad).startsWith("{\"error\":\"invalid_query\",\"message\":");
            }
            RawResponse ping = client.send("GET /ping HTTP/1.1\r\nHost: h\r\n\r\n").read();
            assertThat(ping.bodyText()).isEqualTo("pong");
            assertThat(ping.header("X-Request-Id")).isNull();
        } finally {
            stop();
        }
    }

    @ParameterizedTest
    @EnumSource(UsersConfig.Store.class)
    void refusesRequestsWithoutTheTokenAndEchoesRequestIds(UsersConfig.Store store) throws SQLException {
        start(store);
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse refused = client.send("GET /api/users/1 HTTP/1.1\r\nHost: h\r\nX-Request-Id: r-1\r\n\r\n").read();
            assertThat(refused.status()).isEqualTo(401);
            assertThat(refused.header("WWW-Authenticate")).isEqualTo("Bearer");
            assertThat(refused.header("X-Request-Id")).isEqualTo("r-1");
            assertThat(refused.bodyText()).isEqualTo("{\"error\":\"unauthorized\",\"message\":\"a valid bearer token is required\"}");
            RawResponse wrong = client.send("GET /api/users/1 HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer test-token-aaaaaaaaaaaaaaaaaaab\r\n\r\n").read();
            assertThat(wrong.status()).isEqualTo(401);
            RawResponse create = client.send("POST /api/users HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n{}").read();
            assertThat(create.status()).isEqualTo(401);
        } finally {
            stop();
        }
    }

    @ParameterizedTest
    @EnumSource(UsersConfig.Store.class)
    void createsUsersWithTheNextIdAndRefusesBadBodiesPrecisely(UsersConfig.Store store) throws SQLException {
        start(store);
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse created = post(client, "{\"name\":\"Zoë \\\"Z\\\"\",\"email\":\"z@example.com\"}", "Content-Type: application/json\r\n");
            assertThat(created.status()).isEqualTo(201);
            String expected = "{\"id\":10001,\"name\":\"Zoë \\\"Z\\\"\",\"email\":\"z@example.com\",\"created_at\":\"2026-12-01T10:15:30Z\"}";
            assertThat(new String(created.body(), StandardCharsets.UTF_8)).isEqualTo(expected);
            assertThat(new String(get(client, "/api/users/10001").body(), StandardCharsets.UTF_8)).isEqualTo(expected);
            assertThat(post(client, "{\"email\":\"a@b\",\"name\":\"\\ud83d\\ude00\"}", "").status()).as("a surrogate pair").isEqualTo(201);
            String second = "{\"id\":10002,\"name\":\"\\uD83D\\uDE00\",\"email\":\"a@b\",\"created_at\":\"2026-12-01T10:15:30Z\"}";
            assertThat(new String(get(client, "/api/users?after=10000").body(), StandardCharsets.UTF_8))
                .isEqualTo("{\"users\":[" + expected + "," + second + "],\"next\":null}");
            assertThat(new String(get(client, "/api/users?after=9999&limit=2").body(), StandardCharsets.UTF_8))
                .isEqualTo("{\"users\":[" + user(10000) + "," + expected + "],\"next\":10001}");

            record Bad(String body, int status, String error) {
            }
            for (Bad bad : List.of(new Bad("{", 400, "invalid_json"), new Bad("[]", 400, "invalid_json"),
                new Bad("{\"name\":\"a\",\"email\":\"a@b\"} {}", 400, "invalid_json"),
                new Bad("{\"name\":\"a\",\"name\":\"b\",\"email\":\"a@b\"}", 400, "invalid_json"),
                new Bad("{\"name\":\"a\"}", 422, "invalid_user"), new Bad("{\"name\":1,\"email\":\"a@b\"}", 422, "invalid_user"),
                new Bad("{\"name\":\"a\",\"email\":\"a@b\",\"admin\":true}", 422, "invalid_user"),
                new Bad("{\"name\":\"\",\"email\":\"a@b\"}", 422, "invalid_user"),
                new Bad("{\"name\":\"" + "n".repeat(101) + "\",\"email\":\"a@b\"}", 422, "invalid_user"),
                new Bad("{\"name\":\"a\",\"email\":\"ab\"}", 422, "invalid_user"),
                new Bad("{\"name\":\"a\",\"email\":\"@ab\"}", 422, "invalid_user"),
                new Bad("{\"name\":\"a\",\"email\":\"ab@\"}", 422, "invalid_user"),
                new Bad("{\"name\":\"\\ud800x\",\"email\":\"a@b\"}", 422, "invalid_user"),
                new Bad("{\"name\":\"a\",\"email\":\"a\\udc00@b\"}", 422, "invalid_user"),
                new Bad("{\"name\":\"a\\ud83d\",\"email\":\"a@b\"}", 422, "invalid_user"),
                new Bad("{\"name\":\"\\ude00\\ud83d\",\"email\":\"a@b\"}", 422, "invalid_user"))) {
                RawResponse refused = post(client, bad.body(), "");
                assertThat(refused.status()).as(bad.body()).isEqualTo(bad.status());
                assertThat(refused.bodyText()).as(bad.body()).startsWith("{\"error\":\"" + bad.error() + "\",\"message\":");
            }
            assertThat(post(client, "{\"name\":\"a\",\"email\":\"a@b\"}", "Content-Type: text/plain\r\n").status()).isEqualTo(415);
            RawResponse tooLarge = client.send("POST /api/users HTTP/1.1\r\nHost: h\r\n" + AUTH + "Content-Length: "
                + (UsersApp.MAX_CREATE_BYTES + 1) + "\r\n\r\n").read();
            assertThat(tooLarge.status()).isEqualTo(413);
        } finally {
            stop();
        }
        start(store);
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            int expected = store == UsersConfig.Store.SQLITE ? 200 : 404;
            assertThat(get(client, "/api/users/10002").status()).as("kept across a restart only on SQLite").isEqualTo(expected);
            RawResponse next = post(client, "{\"name\":\"third\",\"email\":\"t@example.com\"}", "");
            assertThat(next.bodyText()).startsWith(store == UsersConfig.Store.SQLITE ? "{\"id\":10003," : "{\"id\":10001,");
        } finally {
            stop();
        }
    }

    @ParameterizedTest
    @EnumSource(UsersConfig.Store.class)
    void logsOneLinePerApiRequestWithItsIdAndStatus(UsersConfig.Store store) throws SQLException, IOException {
        start(store);
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /api/users/3 HTTP/1.1\r\nHost: h\r\nX-Request-Id: log-1\r\n" + AUTH + "\r\n").read();
            client.send("GET /api/users/3 HTTP/1.1\r\nHost: h\r\nX-Request-Id: log-2\r\n\r\n").read();
            post(client, "{\"name\":\"l\",\"email\":\"l@example.com\"}", "X-Request-Id: log-3\r\n");
            client.send("GET /ping HTTP/1.1\r\nHost: h\r\n\r\n").read();
        } finally {
            stop();
        }
        List<String> lines = Files.readAllLines(dir.resolve("access.log"));
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).matches("1796120130700 log-1 GET /api/users/3 200 \\d+");
        assertThat(lines.get(1)).matches("1796120130700 log-2 GET /api/users/3 401 \\d+");
        assertThat(lines.get(2)).matches("1796120130700 log-3 POST /api/users 201 \\d+");
    }
}
