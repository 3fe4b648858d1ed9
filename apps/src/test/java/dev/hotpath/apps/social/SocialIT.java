package dev.hotpath.apps.social;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.HttpServer;
import dev.hotpath.http.ServerConfig;
import dev.hotpath.http.testing.MutableClock;
import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import dev.hotpath.store.Durability;
import dev.hotpath.store.SqliteDatabase;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The social contract's tables over real sockets, on a small seeded database: on one event loop with
 * one connection for reads and writes, and on two loops with read connections beside a writer thread.
 */
@ParameterizedClass
@ValueSource(booleans = {true, false})
class SocialIT {
    @Parameter
    boolean oneEventLoop;

    private static final byte[] SECRET = "twelve-dollar-challenge".getBytes(StandardCharsets.UTF_8);
    private static final Instant NOW = Instant.parse("2026-11-30T10:00:00Z");

    @TempDir
    Path dir;

    private final MutableClock clock = new MutableClock(NOW);
    private Path file;
    private SocialApp app;
    private HttpServer server;
    private String token;
    private String username;

    @BeforeEach
    void start() throws Exception {
        file = dir.resolve("social.db");
        SocialSeed.generate(file, new SocialSeed.Size(50, 300), 5);
        app = SocialApp.open(new SocialConfig(file, SECRET, Durability.NORMAL, clock, oneEventLoop));
        server = HttpServer.start(ServerConfig.of(new InetSocketAddress("127.0.0.1", 0)).withClock(clock)
            .withEventLoops(oneEventLoop ? 1 : 2), app.routes());
        username = usernameOf(7);
        token = tokenFor(7, username);
    }

    private String usernameOf(long id) throws Exception {
        try (Connection db = SqliteDatabase.open(file); Statement s = db.createStatement();
             ResultSet rs = s.executeQuery("SELECT username FROM users WHERE id = " + id)) {
            rs.next();
            return rs.getString(1);
        }
    }

    @AfterEach
    void stop() {
        server.close(Duration.ofSeconds(5));
        app.close();
    }

    private String tokenFor(long id, String username) {
        long now = NOW.getEpochSecond();
        return new Tokens(SECRET).mint(id, username, now - 60, now + 3600);
    }

    private RawResponse call(String method, String path, String authorization, String body) {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            StringBuilder request = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: h\r\n");
            if (authorization != null) {
                request.append("Authorization: ").append(authorization).append("\r\n");
            }
            byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            if (body != null) {
                request.append("Content-Type: application/json\r\nContent-Length: ").append(bytes.length).append("\r\n");
            }
            client.send(request.append("\r\n").toString());
            if (bytes.length > 0) {
                client.send(bytes);
            }
            return client.read();
        }
    }

    private RawResponse get(String path) {
        return call("GET", path, null, null);
    }

    private RawResponse createPost(String json) {
        return call("POST", "/posts", "Bearer " + token, json);
    }

    private static long count(Path file, String sql) throws Exception {
        try (Connection db = SqliteDatabase.open(file); Statement s = db.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static long postIdOf(RawResponse created) {
        Matcher m = Pattern.compile("\\{\"post\":\\{\"id\":(\\d+),").matcher(created.bodyText());
        assertThat(m.find()).as(created.bodyText()).isTrue();
        return Long.parseLong(m.group(1));
    }

    @Test
    void answersHealthAfterARealQuery() {
        clock.advance(Duration.ofSeconds(42));
        RawResponse health = get("/health");
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.header("Content-Type")).startsWith("application/json");
        assertThat(health.bodyText()).isEqualTo("{\"status\":\"ok\",\"db\":\"ok\",\"uptime_s\":42}");
    }

    @Test
    void answersTheFeedAndAPost() {
        RawResponse feed = get("/feed");
        assertThat(feed.status()).isEqualTo(200);
        assertThat(feed.bodyText()).startsWith("{\"posts\":[{\"id\":");
        assertThat(Pattern.compile("\\{\"id\":").matcher(feed.bodyText()).results().count()).isEqualTo(20);
        RawResponse post = get("/posts/1");
        assertThat(post.status()).isEqualTo(200);
        assertThat(post.bodyText()).startsWith("{\"post\":{\"id\":1,\"body\":");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "abc", "1.5", "00", "99999999999999999999"})
    void refusesAPostIdThatIsNotAPositiveInteger(String id) {
        RawResponse response = get("/posts/" + id);
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.bodyText()).isEqualTo("{\"error\":\"invalid post id\"}");
    }

    @Test
    void answersUnknownPostsAndPaths() {
        assertThat(get("/posts/999999").bodyText()).isEqualTo("{\"error\":\"post not found\"}");
        RawResponse unknown = get("/nowhere");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.bodyText()).isEqualTo("{\"error\":\"not found\"}");
    }

    @Test
    void checksTheTokenBeforeAnythingElse() {
        String expired = new Tokens(SECRET).mint(7, "u", NOW.getEpochSecond() - 7200, NOW.getEpochSecond() - 1);
        assertThat(call("POST", "/posts", null, "{\"body\":\"x\"}").bodyText()).isEqualTo("{\"error\":\"missing bearer token\"}");
        assertThat(call("POST", "/posts", "Basic abc", "{\"body\":\"x\"}").status()).isEqualTo(401);
        assertThat(call("POST", "/posts", "Bearer " + expired, "{\"body\":\"x\"}").bodyText())
            .isEqualTo("{\"error\":\"invalid or expired token\"}");
        assertThat(call("POST", "/posts/abc/like", null, null).status()).isEqualTo(401);
        assertThat(call("POST", "/posts/abc/like", "Bearer " + token, null).bodyText()).isEqualTo("{\"error\":\"invalid post id\"}");
    }

    @Test
    void refusesBodiesTheContractRefuses() {
        assertThat(createPost("{\"body\":").bodyText()).isEqualTo("{\"error\":\"malformed JSON body\"}");
        assertThat(createPost("{\"body\":\"x\"} trailing").bodyText()).isEqualTo("{\"error\":\"malformed JSON body\"}");
        assertThat(call("POST", "/posts", "Bearer " + token, null).bodyText()).isEqualTo("{\"error\":\"body is required\"}");
        assertThat(createPost("{}").bodyText()).isEqualTo("{\"error\":\"body is required\"}");
        assertThat(createPost("{\"body\":5}").bodyText()).isEqualTo("{\"error\":\"body is required\"}");
        assertThat(createPost("{\"body\":\"   \\n \"}").bodyText()).isEqualTo("{\"error\":\"body is required\"}");
        assertThat(createPost("[\"body\"]").bodyText()).isEqualTo("{\"error\":\"body is required\"}");
        assertThat(createPost("{\"body\":\"" + "a".repeat(501) + "\"}").bodyText())
            .isEqualTo("{\"error\":\"body must be at most 500 characters\"}");
        RawResponse exactly500 = createPost("{\"body\":\"  " + "é".repeat(500) + "  \"}");
        assertThat(exactly500.status()).isEqualTo(201);
    }

    @Test
    void createsAPostAfterItsCommitAndRoundTripsUtf8() throws Exception {
        String body = "He said \\\"hi\\\" <b>&amp;</b> / café ✓";
        RawResponse created = createPost("{\"body\":\"  " + body + "  \"}");
        assertThat(created.status()).isEqualTo(201);
        long id = postIdOf(created);
        String createdAt;
        try (Connection db = SqliteDatabase.open(file); Statement s = db.createStatement();
             ResultSet rs = s.executeQuery("SELECT body, created_at, user_id FROM posts WHERE id = " + id)) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("He said \"hi\" <b>&amp;</b> / café ✓");
            assertThat(rs.getLong(3)).isEqualTo(7);
            createdAt = rs.getString(2);
        }
        String expected = "{\"post\":{\"id\":" + id + ",\"body\":\"He said \\\"hi\\\" <b>&amp;</b> / café ✓\",\"created_at\":\""
            + createdAt + "\",\"author\":\"" + username + "\",\"like_count\":0}}";
        assertThat(created.bodyText()).isEqualTo(expected);
        assertThat(get("/posts/" + id).bodyText()).isEqualTo(expected);
    }

    @Test
    void refusesWritesOfAValidTokenWhoseUserDoesNotExistAndStoresNothing() throws Exception {
        String stranger = "Bearer " + tokenFor(999_999, "nobody_here");
        long posts = count(file, "SELECT count(*) FROM posts");
        long likes = count(file, "SELECT count(*) FROM likes");
        RawResponse created = call("POST", "/posts", stranger, "{\"body\":\"hello\"}");
        assertThat(created.status()).isEqualTo(401);
        assertThat(created.bodyText()).isEqualTo("{\"error\":\"invalid token payload\"}");
        RawResponse liked = call("POST", "/posts/1/like", stranger, null);
        assertThat(liked.status()).isEqualTo(401);
        assertThat(liked.bodyText()).isEqualTo("{\"error\":\"invalid token payload\"}");
        assertThat(count(file, "SELECT count(*) FROM posts")).isEqualTo(posts);
        assertThat(count(file, "SELECT count(*) FROM likes")).isEqualTo(likes);
        assertThat(createPost("{\"body\":\"a real user still posts\"}").status()).as("the writer goes on").isEqualTo(201);
    }

    @Test
    void likesOncePerUserAndPostAndShowsTheCountAtOnce() {
        long id = postIdOf(createPost("{\"body\":\"like me\"}"));
        RawResponse first = call("POST", "/posts/" + id + "/like", "Bearer " + token, null);
        assertThat(first.status()).isEqualTo(201);
        assertThat(first.bodyText()).isEqualTo("{\"liked\":true,\"already_liked\":false,\"post_id\":" + id + "}");
        RawResponse again = call("POST", "/posts/" + id + "/like", "Bearer " + token, null);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.bodyText()).isEqualTo("{\"liked\":true,\"already_liked\":true,\"post_id\":" + id + "}");
        assertThat(get("/posts/" + id).bodyText()).endsWith("\"like_count\":1}}");
        assertThat(call("POST", "/posts/999999/like", "Bearer " + token, null).bodyText())
            .isEqualTo("{\"error\":\"post not found\"}");
    }

    @Test
    void countsALikeExactlyOnceUnderConcurrentLikesFromManyConnections() throws Exception {
        long id = postIdOf(createPost("{\"body\":\"contested\"}"));
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Callable<Integer>> likes = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                likes.add(() -> call("POST", "/posts/" + id + "/like", "Bearer " + token, null).status());
            }
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> f : pool.invokeAll(likes)) {
                statuses.add(f.get());
            }
            assertThat(statuses).filteredOn(s -> s == 201).hasSize(1);
            assertThat(statuses).filteredOn(s -> s == 200).hasSize(63);
        } finally {
            pool.shutdownNow();
        }
        assertThat(count(file, "SELECT count(*) FROM likes WHERE user_id = 7 AND post_id = " + id)).isEqualTo(1);
    }
}
