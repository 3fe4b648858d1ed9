package dev.hotpath.apps.messages;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.apps.messages.internal.StreamEntries;
import dev.hotpath.http.HttpServer;
import dev.hotpath.http.ServerConfig;
import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import dev.hotpath.store.Durability;
import dev.hotpath.store.RedisConfig;
import dev.hotpath.store.RedisConnections;
import dev.hotpath.store.testing.Await;
import dev.hotpath.store.testing.ThrowawayRedis;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code POST /message-fast} with a stream, over a real socket, Redis and each store (SQLite, PostgreSQL): 202 after the
 * {@code XADD}, stored by the worker; drained when the worker comes later; 503 with {@code Retry-After}
 * while Redis hangs, and the direct path unaffected.
 */
@Timeout(120)
@ParameterizedClass
@EnumSource(TestStore.class)
class MessagesStreamIT {
    private static final Pattern ID = Pattern.compile("\"id\":\"([0-9a-f-]{36})\"");

    @Parameter
    TestStore kind;
    @TempDir
    Path dir;

    private TestStore.Place store;
    private MessagesApp app;
    private HttpServer server;
    private RawHttpClient client;

    private void start(StreamConfig stream) {
        if (store == null) {
            store = kind.fresh(dir);
        }
        PrometheusRegistry registry = new PrometheusRegistry();
        app = MessagesApp.open(store.config(Durability.NORMAL, MessagesConfig.MAX_BATCH, Clock.systemUTC())
            .withStream(stream), registry);
        server = HttpServer.start(ServerConfig.of(new InetSocketAddress("127.0.0.1", 0)).withMetrics(registry),
            app.routes());
        client = RawHttpClient.connect(server.port());
    }

    private void stop() {
        if (client != null) {
            client.close();
            server.close();
            app.close();
            client = null;
        }
    }

    @AfterEach
    void cleanUp() {
        stop();
        ThrowawayRedis.shared().flushAll();
    }

    private static StreamConfig shared(boolean worker) {
        return StreamConfig.of(RedisConfig.parse(ThrowawayRedis.shared().uri()), worker)
            .withTimes(Duration.ofMillis(200), Duration.ofMillis(100), Duration.ofMillis(100));
    }

    private RawResponse post(String path, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String head = "POST " + path + " HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: "
            + bytes.length + "\r\n\r\n";
        byte[] request = new byte[head.length() + bytes.length];
        System.arraycopy(head.getBytes(StandardCharsets.US_ASCII), 0, request, 0, head.length());
        System.arraycopy(bytes, 0, request, head.length(), bytes.length);
        return client.send(request).read();
    }

    private RawResponse get(String target) {
        return client.send("GET " + target + " HTTP/1.1\r\nHost: a\r\n\r\n").read();
    }

    private static String idOf(RawResponse response) {
        Matcher m = ID.matcher(response.bodyText());
        assertThat(m.find()).as(response.bodyText()).isTrue();
        return m.group(1);
    }

    @Test
    void aFastMessageIsAcceptedWith202AndReadableOnceTheWorkerStoredIt() {
        start(shared(true));
        RawResponse accepted = post("/message-fast", "{\"from\":\"alice\",\"to\":\"bob\",\"message\":\"fast \\u00e9\"}");
        assertThat(accepted.status()).as(accepted.bodyText()).isEqualTo(202);
        assertThat(accepted.header("Content-Type")).isEqualTo("application/json");
        assertThat(accepted.bodyText()).matches("\\{\"id\":\"[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\","
            + "\"from\":\"alice\",\"to\":\"bob\",\"message\":\"fast é\",\"created_at\":\"[^\"]+\"}");
        String id = idOf(accepted);
        Await.until("the message stored", () -> get("/messages/" + id).status() == 200);
        assertThat(get("/messages/" + id).bodyText()).isEqualTo(accepted.bodyText());
        Await.until("the entry acknowledged", () -> {
            String metrics = get("/metrics").bodyText();
            return metrics.contains("hotpath_messages_stream_pending 0.0")
                && metrics.contains("hotpath_messages_stream_stored_total 1.0")
                && metrics.contains("hotpath_messages_stream_accepted_total 1.0")
                && metrics.contains("hotpath_messages_stored_total 0.0");
        });
    }

    @Test
    void theFastPathValidatesLikeTheDirectOne() {
        start(shared(true));
        RawResponse refused = post("/message-fast", "{\"from\":\"alice\",\"to\":\"bob\"}");
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.bodyText()).startsWith("{\"error\":\"invalid_message\"");
        try (RedisConnections redis = new RedisConnections(RedisConfig.parse(ThrowawayRedis.shared().uri()))) {
            assertThat(redis.shared().sync().xlen(StreamEntries.STREAM)).isZero();
        }
    }

    @Test
    void messagesAcceptedBeforeAnyWorkerExistedAreStoredOnceOneStarts() {
        start(shared(false));
        List<String> accepted = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            RawResponse response = post("/message-fast", "{\"from\":\"a\",\"to\":\"b\",\"message\":\"early " + i + "\"}");
            assertThat(response.status()).isEqualTo(202);
            accepted.add(response.bodyText());
        }
        try (RedisConnections redis = new RedisConnections(RedisConfig.parse(ThrowawayRedis.shared().uri()))) {
            assertThat(redis.shared().sync().xlen(StreamEntries.STREAM)).isEqualTo(20);
            assertThat(redis.shared().sync().exists(StreamEntries.STREAM)).isEqualTo(1);
        }
        assertThat(get("/messages/" + idOf(new RawResponse(202, java.util.Map.of(),
            accepted.getFirst().getBytes(StandardCharsets.UTF_8)))).status()).as("no worker: not stored").isEqualTo(404);
        stop();
        start(shared(true));
        for (String body : accepted) {
            String id = idOf(new RawResponse(202, java.util.Map.of(), body.getBytes(StandardCharsets.UTF_8)));
            Await.until("message " + id, () -> get("/messages/" + id).status() == 200);
            assertThat(get("/messages/" + id).bodyText()).isEqualTo(body);
        }
    }

    @Test
    void whileRedisHangsTheFastPathIs503AfterTheTimeoutAndTheDirectPathStores() {
        Duration timeout = Duration.ofSeconds(2);
        try (ThrowawayRedis redis = ThrowawayRedis.launch()) {
            start(StreamConfig.of(RedisConfig.parse(redis.uri()).withCommandTimeout(timeout), true)
                .withTimes(Duration.ofMillis(200), Duration.ofMillis(100), Duration.ofMillis(100)));
            assertThat(post("/message-fast", "{\"from\":\"a\",\"to\":\"b\",\"message\":\"before\"}").status()).isEqualTo(202);
            redis.pause();
            try {
                long begin = System.nanoTime();
                RawResponse refused = post("/message-fast", "{\"from\":\"a\",\"to\":\"b\",\"message\":\"paused\"}");
                Duration took = Duration.ofNanos(System.nanoTime() - begin);
                assertThat(refused.status()).as(refused.bodyText()).isEqualTo(503);
                assertThat(refused.bodyText()).startsWith("{\"error\":\"stream_unavailable\"");
                assertThat(refused.header("Retry-After")).isEqualTo("1");
                // Refused by the command's timeout, so never before it, and after one timeout, not a retry:
                // a second attempt would take twice as long. The timeout is long enough that the answer's
                // own lateness on a loaded machine stays far inside that margin.
                assertThat(took).isGreaterThanOrEqualTo(timeout).isLessThan(timeout.multipliedBy(2));
                RawResponse direct = post("/message", "{\"from\":\"a\",\"to\":\"b\",\"message\":\"direct\"}");
                assertThat(direct.status()).as(direct.bodyText()).isEqualTo(201);
                assertThat(get("/messages/" + idOf(direct)).status()).isEqualTo(200);
            } finally {
                redis.resume();
            }
            Await.until("the fast path back", () -> post("/message-fast", "{\"from\":\"a\",\"to\":\"b\",\"message\":\"after\"}")
                .status() == 202);
            stop();
        }
    }
}
