package dev.hotpath.apps.messages;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.HttpServer;
import dev.hotpath.http.ServerConfig;
import dev.hotpath.http.testing.MutableClock;
import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import dev.hotpath.store.Durability;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every route of the messages API and every error it answers, over a real socket and database: SQLite
 * and PostgreSQL alike.
 */
@ParameterizedClass
@EnumSource(TestStore.class)
class MessagesIT {
    private static final Instant NOW = Instant.parse("2026-11-30T04:00:00.123Z");
    private static final Pattern ID = Pattern.compile("\"id\":\"([0-9a-f-]{36})\"");
    private static final String UNKNOWN_ID = "0194f5c2-7a3b-7cde-8f01-23456789abcd";

    @Parameter
    TestStore kind;
    @TempDir
    Path dir;

    private TestStore.Place store;
    private final MutableClock clock = new MutableClock(NOW);
    private MessagesApp app;
    private HttpServer server;
    private RawHttpClient client;

    @BeforeEach
    void start() {
        store = kind.fresh(dir);
        PrometheusRegistry registry = new PrometheusRegistry();
        app = MessagesApp.open(store.config(Durability.FULL, MessagesConfig.MAX_BATCH, clock), registry);
        server = HttpServer.start(ServerConfig.of(new InetSocketAddress("127.0.0.1", 0)).withMetrics(registry),
            app.routes());
        client = RawHttpClient.connect(server.port());
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
        app.close();
    }

    private RawResponse post(String path, String contentType, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String head = "POST " + path + " HTTP/1.1\r\nHost: a\r\n" + (contentType == null ? "" : "Content-Type: " + contentType + "\r\n")
            + "Content-Length: " + bytes.length + "\r\n\r\n";
        byte[] request = new byte[head.length() + bytes.length];
        System.arraycopy(head.getBytes(StandardCharsets.US_ASCII), 0, request, 0, head.length());
        System.arraycopy(bytes, 0, request, head.length(), bytes.length);
        return client.send(request).read();
    }

    private RawResponse create(String body) {
        return post("/message", "application/json", body);
    }

    private String created(String from, String to, String message) {
        RawResponse response = create("{\"from\":\"" + from + "\",\"to\":\"" + to + "\",\"message\":\"" + message + "\"}");
        assertThat(response.status()).as(response.bodyText()).isEqualTo(201);
        Matcher m = ID.matcher(response.bodyText());
        assertThat(m.find()).isTrue();
        return m.group(1);
    }

    private RawResponse get(String target) {
        return client.send("GET " + target + " HTTP/1.1\r\nHost: a\r\n\r\n").read();
    }

    private static void assertError(RawResponse response, int status, String code) {
        assertThat(response.status()).as(response.bodyText()).isEqualTo(status);
        assertThat(response.header("Content-Type")).isEqualTo("application/json");
        assertThat(response.bodyText()).startsWith("{\"error\":\"" + code + "\",\"message\":\"");
    }

    @Test
    void aCreatedMessageIsAnsweredWithItsKeysInOrderAndStored() throws Exception {
        RawResponse response = create("{\"from\":\"alice\",\"to\":\"bob\",\"message\":\"Hello\"}");
        assertThat(response.status()).isEqualTo(201);
        assertThat(response.header("Content-Type")).isEqualTo("application/json");
        String body = response.bodyText();
        assertThat(body).matches("\\{\"id\":\"[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\","
            + "\"from\":\"alice\",\"to\":\"bob\",\"message\":\"Hello\",\"created_at\":\"2026-11-30T04:00:00.123Z\"}");
        Matcher m = ID.matcher(body);
        assertThat(m.find()).isTrue();
        assertThat(store.rows()).containsExactly(m.group(1).replace("-", "") + "|alice|bob|Hello|2026-11-30T04:00:00.123Z");
    }

    @Test
    void aMessageIsReadBackByItsIdExactlyAsAcknowledged() {
        String text = "line\\nnext \\u0000 \\ud83d\\ude00 \\\"quoted\\\" é";
        RawResponse created = create("{\"from\":\"Al ice\",\"to\":\"bö\",\"message\":\"" + text + "\"}");
        Matcher m = ID.matcher(created.bodyText());
        assertThat(m.find()).isTrue();
        RawResponse read = get("/messages/" + m.group(1));
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.bodyText()).isEqualTo(created.bodyText());
        assertThat(get("/messages/" + m.group(1).toUpperCase()).bodyText()).isEqualTo(created.bodyText());
    }

    @Test
    void anUnknownIdAndAPathThatIsNoIdAreBothNotFound() {
        assertError(get("/messages/" + UNKNOWN_ID), 404, "not_found");
        assertError(get("/messages/42"), 404, "not_found");
        assertError(get("/messages/%20"), 404, "not_found");
    }

    @Test
    void listsAUsersMessagesNewestFirstAcrossPages() {
        List<String> toBob = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            toBob.add(created("alice", "bob", "m" + i));
            created("bob", "carol", "other" + i);
            if (i == 2) {
                clock.advance(Duration.ofMillis(1));
            }
        }
        RawResponse first = get("/messages?to=bob&limit=2");
        assertThat(first.status()).isEqualTo(200);
        assertThat(ids(first)).containsExactly(toBob.get(4), toBob.get(3));
        assertThat(first.bodyText()).endsWith("],\"next\":\"" + toBob.get(3) + "\"}");
        RawResponse second = get("/messages?to=bob&limit=2&before=" + toBob.get(3));
        assertThat(ids(second)).containsExactly(toBob.get(2), toBob.get(1));
        RawResponse last = get("/messages?to=bob&limit=2&before=" + toBob.get(1));
        assertThat(ids(last)).containsExactly(toBob.get(0));
        assertThat(last.bodyText()).endsWith("],\"next\":null}");
        assertThat(get("/messages?limit=3&to=bob").bodyText()).contains("\"next\":\"" + toBob.get(2) + "\"");
    }

    @Test
    void aPageThatEndsExactlyAtTheLastMessageSaysNoNext() {
        String only = created("alice", "dave", "hi");
        RawResponse page = get("/messages?from=alice&limit=1");
        assertThat(ids(page)).containsExactly(only);
        assertThat(page.bodyText()).endsWith("\"next\":null}");
    }

    @Test
    void listsByFromAndAnswersAnEmptyPageForAStranger() {
        String sent = created("alice", "bob", "hi");
        created("bob", "alice", "back");
        assertThat(ids(get("/messages?from=alice"))).containsExactly(sent);
        assertThat(get("/messages?to=nobody").bodyText()).isEqualTo("{\"messages\":[],\"next\":null}");
        assertThat(ids(get("/messages?to=b%C3%B6b"))).isEmpty();
    }

    @Test
    void aBadListQueryIsInvalidQuery() {
        assertError(get("/messages"), 400, "invalid_query");
        assertError(get("/messages?to=bob&from=alice"), 400, "invalid_query");
        assertError(get("/messages?to=bob&limit=101"), 400, "invalid_query");
        assertError(get("/messages?to=bob&before=yesterday"), 400, "invalid_query");
        assertError(get("/messages?to=bob&page=2"), 400, "invalid_query");
    }

    @Test
    void aBadBodyIsRefusedWithItsCodeAndNothingIsStored() throws Exception {
        assertError(create("{\"from\":\"alice\",\"to\":\"bob\"}"), 400, "invalid_message");
        assertError(create("{\"from\":\"alice\",\"to\":\"bob\",\"message\":\"" + "x".repeat(1001) + "\"}"), 400,
            "invalid_message");
        assertError(create("{\"from\":\"alice\",\"to\":\"bob\",\"message\":\"hi\""), 400, "malformed_json");
        assertError(create("{\"from\":\"alice\",\"to\":\"bob\",\"message\":\"hi\",\"cc\":\"carol\"}"), 400, "unknown_field");
        assertError(post("/message", "text/plain", "{\"from\":\"a\",\"to\":\"b\",\"message\":\"c\"}"), 415,
            "unsupported_media_type");
        assertThat(store.count()[0]).isZero();
    }

    @Test
    void aMessageTheDatabaseRefusesIsStoreUnavailableAndTheNextOneIsStored() throws Exception {
        store.refuseText("poison");
        String poison = "{\"from\":\"a\",\"to\":\"b\",\"message\":\"poison\"}";
        String fine = "{\"from\":\"a\",\"to\":\"b\",\"message\":\"fine\"}";
        client.send("POST /message HTTP/1.1\r\nHost: a\r\nContent-Length: " + poison.length() + "\r\n\r\n" + poison
            + "POST /message HTTP/1.1\r\nHost: a\r\nContent-Length: " + fine.length() + "\r\n\r\n" + fine);
        RawResponse refused = client.read();
        assertError(refused, 503, "store_unavailable");
        assertThat(refused.header("Retry-After")).isEqualTo("1");
        RawResponse stored = client.read();
        assertThat(stored.status()).isEqualTo(201);
        Matcher m = ID.matcher(stored.bodyText());
        assertThat(m.find()).isTrue();
        assertThat(get("/messages/" + m.group(1)).status()).isEqualTo(200);
        assertThat(get("/messages?to=b").bodyText()).doesNotContain("poison");
    }

    @Test
    void aBodyWithoutContentTypeOrWithParametersIsTakenAsJson() {
        assertThat(post("/message", null, "{\"from\":\"a\",\"to\":\"b\",\"message\":\"c\"}").status()).isEqualTo(201);
        assertThat(post("/message", "Application/JSON; charset=utf-8", "{\"from\":\"a\",\"to\":\"b\",\"message\":\"c\"}")
            .status()).isEqualTo(201);
    }

    @Test
    void aBodyOverSixteenKibibytesIs413() {
        String body = "{\"from\":\"a\",\"to\":\"b\",\"message\":\"" + "x".repeat(MessagesApp.BODY_LIMIT_BYTES) + "\"}";
        RawResponse response = create(body);
        assertThat(response.status()).isEqualTo(413);
    }

    @Test
    void theLongestValidMessageFitsTheBodyLimitEvenFullyEscaped() {
        String name = "\\ud83d\\ude00".repeat(64);
        String body = "{\"from\":\"" + name + "\",\"to\":\"" + name + "\",\"message\":\"" + "\\ud83d\\ude00".repeat(1000) + "\"}";
        assertThat(body.length()).isLessThan(MessagesApp.BODY_LIMIT_BYTES);
        assertThat(create(body).status()).isEqualTo(201);
    }

    @Test
    void theFastPathIsUnavailableWithoutAStream() {
        RawResponse response = post("/message-fast", "application/json", "{\"from\":\"a\",\"to\":\"b\",\"message\":\"c\"}");
        assertError(response, 503, "stream_unavailable");
        assertThat(response.header("Retry-After")).isNull();
    }

    @Test
    void healthAndReadinessAnswerAndReadinessTurnsOffWhenDraining() {
        assertThat(get("/health").bodyText()).isEqualTo("{\"status\":\"ok\"}");
        assertThat(get("/ready").status()).isEqualTo(200);
        app.beginDrain();
        assertError(get("/ready"), 503, "not_ready");
        assertThat(get("/health").status()).isEqualTo(200);
    }

    @Test
    void metricsCountMessagesRefusalsAndBatches() {
        created("alice", "bob", "one");
        created("alice", "bob", "two");
        create("{}");
        get("/messages/" + UNKNOWN_ID);
        String metrics = get("/metrics").bodyText();
        assertThat(metrics).contains("hotpath_messages_stored_total 2.0");
        assertThat(metrics).contains("hotpath_messages_refusals_total{code=\"invalid_message\"} 1.0");
        assertThat(metrics).contains("hotpath_messages_refusals_total{code=\"not_found\"} 1.0");
        assertThat(metrics).contains("hotpath_messages_refusals_total{code=\"overloaded\"} 0.0");
        app.beginDrain();
        get("/ready");
        assertThat(get("/metrics").bodyText()).contains("hotpath_messages_refusals_total{code=\"not_ready\"} 1.0");
        assertThat(metrics).contains("hotpath_store_batch_size_count 2");
        assertThat(metrics).contains("hotpath_store_batch_size_bucket{le=\"1.0\"} 2");
        assertThat(metrics).contains("hotpath_store_batch_seconds_count 2");
        assertThat(metrics).contains("hotpath_store_batches_total 2.0");
    }

    @Test
    void anUnknownPathIsNotFoundAndAWrongMethodIs405() {
        assertError(get("/nope"), 404, "not_found");
        assertThat(client.send("DELETE /messages/" + UNKNOWN_ID + " HTTP/1.1\r\nHost: a\r\n\r\n").read().status())
            .isEqualTo(405);
    }

    @Test
    void aSecondOpenIsRefusedOnADataDirAndAllowedOnAPostgresDatabase() {
        MessagesConfig again = store.config(Durability.FULL, 1, clock);
        if (kind == TestStore.SQLITE) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> MessagesApp.open(again, new PrometheusRegistry()))
                .hasMessageContaining("is in use by another hotpath process");
            return;
        }
        String id = created("alice", "bob", "seen by both");
        PrometheusRegistry registry = new PrometheusRegistry();
        try (MessagesApp second = MessagesApp.open(again, registry);
             HttpServer secondServer = HttpServer.start(ServerConfig.of(new InetSocketAddress("127.0.0.1", 0)),
                 second.routes());
             RawHttpClient secondClient = RawHttpClient.connect(secondServer.port())) {
            assertThat(secondClient.send("GET /messages/" + id + " HTTP/1.1\r\nHost: a\r\n\r\n").read().bodyText())
                .contains("\"message\":\"seen by both\"");
        }
    }

    @Test
    void messagesSurviveAReopen() {
        String id = created("alice", "bob", "kept");
        client.close();
        server.close();
        app.close();
        PrometheusRegistry registry = new PrometheusRegistry();
        app = MessagesApp.open(store.config(Durability.NORMAL, 1, clock), registry);
        server = HttpServer.start(ServerConfig.of(new InetSocketAddress("127.0.0.1", 0)).withMetrics(registry), app.routes());
        client = RawHttpClient.connect(server.port());
        assertThat(get("/messages/" + id).bodyText()).contains("\"message\":\"kept\"");
    }

    private static List<String> ids(RawResponse response) {
        List<String> ids = new ArrayList<>();
        Matcher m = ID.matcher(response.bodyText());
        while (m.find()) {
            ids.add(m.group(1));
        }
        return ids;
    }
}
