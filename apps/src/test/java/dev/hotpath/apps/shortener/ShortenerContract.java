package dev.hotpath.apps.shortener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.apps.App;
import dev.hotpath.http.HttpServer;
import dev.hotpath.http.ServerConfig;
import dev.hotpath.http.testing.MutableClock;
import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The shortener contract over real sockets, route by route, error by error, for every storage: a
 * subclass opens the app on its own ({@link EmbeddedShortenerIT}: a data directory;
 * {@link PostgresShortenerIT}: PostgreSQL and Redis), and adds the tests of what only its mode has.
 */
abstract class ShortenerContract {
    static final Pattern CODE = Pattern.compile("\"code\":\"([^\"]+)\"");

    final MutableClock clock = new MutableClock(Instant.parse("2026-11-30T04:00:00.123Z"));
    App app;
    HttpServer server;
    String key;
    /** Where the last start wrote a new API key, or null. */
    Path createdKeyFile;

    /** An app opened by a test, and where it wrote a new API key (null when its store had keys). */
    record Opened(App app, Path createdKeyFile) {
    }

    /**
     * Opens the app on this test's store: the store starts empty in each test, and a second open in
     * one test finds what the first stored.
     */
    abstract Opened open(String codes, Set<String> denied, String metricsToken, PrometheusRegistry registry)
        throws Exception;

    /** What {@code /api/stats} reports as {@code capacity} for scrambled codes. */
    abstract long capacity();

    void start(String codes, Set<String> denied, String metricsToken) throws Exception {
        PrometheusRegistry registry = new PrometheusRegistry();
        Opened opened = open(codes, denied, metricsToken, registry);
        app = opened.app();
        server = HttpServer.start(ServerConfig.of(new InetSocketAddress("127.0.0.1", 0)).withMetrics(registry)
            .withClock(clock), app.routes());
        createdKeyFile = opened.createdKeyFile();
        if (createdKeyFile != null) {
            key = Files.readString(createdKeyFile).strip();
        }
    }

    void start() throws Exception {
        start("scrambled", Set.of("evil.example", "*.bad.example"), null);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close(Duration.ofSeconds(5));
            server = null;
        }
        if (app != null) {
            app.close();
            app = null;
        }
    }

    RawResponse call(String method, String path, String body, boolean auth) {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            String request = method + " " + path + " HTTP/1.1\r\nHost: sho.rt\r\n"
                + (auth ? "Authorization: Bearer " + key + "\r\n" : "")
                + (body == null ? "" : "Content-Type: application/json\r\nContent-Length: "
                    + body.getBytes(java.nio.charset.StandardCharsets.UTF_8).length + "\r\n")
                + "\r\n" + (body == null ? "" : body);
            client.send(request.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return client.read(method.equals("HEAD"));
        }
    }

    /** A GET without key, with {@code headers} ({@code "Name: value"} each). */
    RawResponse get(String path, String... headers) {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            StringBuilder request = new StringBuilder("GET " + path + " HTTP/1.1\r\nHost: sho.rt\r\n");
            for (String header : headers) {
                request.append(header).append("\r\n");
            }
            client.send(request.append("\r\n").toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return client.read(false);
        }
    }

    String create(String json) {
        RawResponse response = call("POST", "/api/links", json, true);
        assertThat(response.status()).as(response.bodyText()).isEqualTo(201);
        Matcher m = CODE.matcher(response.bodyText());
        assertThat(m.find()).isTrue();
        return m.group(1);
    }

    @Test
    void createsALinkAndAnswersWithTheContractsObject() throws Exception {
        start();
        RawResponse response = call("POST", "/api/links", "{\"url\":\"HTTPS://Example.com:443/a?b=c\"}", true);
        assertThat(response.status()).isEqualTo(201);
        String code = CODE.matcher(response.bodyText()).results().findFirst().orElseThrow().group(1);
        assertThat(code).matches("[0-9A-Za-z]{8}");
        assertThat(response.header("Location")).isEqualTo("/api/links/" + code);
        assertThat(response.header("Cache-Control")).isEqualTo("no-store");
        assertThat(response.header("Content-Type")).isEqualTo("application/json");
        assertThat(response.bodyText()).isEqualTo("{\"code\":\"" + code + "\",\"short_url\":\"https://sho.rt/x/" + code
            + "\",\"long_url\":\"https://example.com/a?b=c\",\"created_at\":\"2026-11-30T04:00:00.123Z\","
            + "\"expires_at\":null,\"protected\":false,\"visits\":0}");
    }

    @Test
    void redirectsWithTheStoredUrlAndCountsGetsButNotHeads() throws Exception {
        start();
        String code = create("{\"url\":\"https://example.com/a\"}");
        RawResponse redirect = call("GET", "/" + code, null, false);
        assertThat(redirect.status()).isEqualTo(302);
        assertThat(redirect.header("Location")).isEqualTo("https://example.com/a");
        assertThat(redirect.header("Content-Length")).isEqualTo("0");
        RawResponse head = call("HEAD", "/" + code, null, false);
        assertThat(head.status()).isEqualTo(302);
        assertThat(head.header("Location")).isEqualTo("https://example.com/a");
        assertThat(call("GET", "/api/links/" + code, null, true).bodyText()).contains("\"visits\":1");
    }

    @Test
    void servesTheCompatibilityCreatePathsButNeverLetsThemFallThroughToACode() throws Exception {
        start();
        assertThat(call("POST", "/api/shorten", "{\"url\":\"https://a.example/\"}", true).status()).isEqualTo(201);
        assertThat(call("POST", "/shorten", "{\"url\":\"https://b.example/\"}", true).status()).isEqualTo(201);
        assertThat(call("GET", "/shorten", null, false).status()).isEqualTo(405);
        assertThat(call("GET", "/api/links", null, false).status()).isEqualTo(401);
    }

    @Test
    void answersEveryInvalidCreateWithItsCodeAndStoresNothing() throws Exception {
        start();
        String[][] cases = {
            {"{\"url\":\"ftp://x.example/\"}", "400", "invalid_url"},
            {"{\"url\":42}", "400", "invalid_url"},
            {"{}", "400", "invalid_url"},
            {"{\"url\":\"https://a.example/\",\"alias\":\"ab\"}", "400", "invalid_alias"},
            {"{\"url\":\"https://a.example/\",\"alias\":\"API\"}", "400", "invalid_alias"},
            {"{\"url\":\"https://a.example/\",\"alias\":\"abcd1234\"}", "400", "invalid_alias"},
            {"{\"url\":\"https://a.example/\",\"alias\":\"sp ace\"}", "400", "invalid_alias"},
            {"{\"url\":\"https://a.example/\",\"alias\":7}", "400", "invalid_alias"},
            {"{\"url\":\"https://a.example/\",\"protected\":\"yes\"}", "400", "invalid_protected"},
            {"{\"url\":\"https://a.example/\",\"expires_at\":\"tomorrow\"}", "400", "invalid_expiry"},
            {"{\"url\":\"https://a.example/\",\"expires_at\":\"2020-01-01T00:00:00Z\"}", "400", "invalid_expiry"},
            {"{\"url\":\"https://a.example/\",\"color\":\"red\"}", "400", "unknown_field"},
            {"{\"url\":\"https://a.example/\"", "400", "malformed_json"},
            {"[{\"url\":\"https://a.example/\"}]", "400", "malformed_json"},
            {"{\"url\":\"https://a.example/\",\"url\":\"https://b.example/\"}", "400", "malformed_json"},
            {"{\"url\":\"https://a.example/\"} {}", "400", "malformed_json"},
            {"{\"url\":\"https://evil.example/x\"}", "400", "denied_host"},
            {"{\"url\":\"https://www.bad.example/x\"}", "400", "denied_host"},
        };
        for (String[] c : cases) {
            RawResponse response = call("POST", "/api/links", c[0], true);
            assertThat(response.status()).as(c[0]).isEqualTo(Integer.parseInt(c[1]));
            assertThat(response.bodyText()).as(c[0]).startsWith("{\"error\":\"" + c[2] + "\",\"message\":\"");
        }
        assertThat(call("GET", "/api/stats", null, true).bodyText()).startsWith("{\"links\":0,");
    }

    @Test
    void refusesAMissingOrWrongKeyAndAnotherMediaType() throws Exception {
        start();
        RawResponse anonymous = call("POST", "/api/links", "{\"url\":\"https://a.example/\"}", false);
        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(anonymous.header("WWW-Authenticate")).isEqualTo("Bearer");
        key = key + "x";
        assertThat(call("POST", "/api/links", "{\"url\":\"https://a.example/\"}", true).status()).isEqualTo(401);
        key = key.substring(0, key.length() - 1);
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse wrongType = client.send("POST /api/links HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer " + key
                + "\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}").read();
            assertThat(wrongType.status()).isEqualTo(415);
            RawResponse noType = client.send("POST /api/links HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer " + key
                + "\r\nContent-Length: 29\r\n\r\n{\"url\":\"https://ok.example/\"}").read();
            assertThat(noType.status()).isEqualTo(201);
        }
    }

    @Test
    void aliasesAreUniqueAndProtectedLinksGetSixteenRandomCharacters() throws Exception {
        start();
        assertThat(create("{\"url\":\"https://a.example/\",\"alias\":\"launch-2026\"}")).isEqualTo("launch-2026");
        RawResponse taken = call("POST", "/api/links", "{\"url\":\"https://b.example/\",\"alias\":\"launch-2026\"}", true);
        assertThat(taken.status()).isEqualTo(409);
        assertThat(taken.bodyText()).contains("alias_taken");
        String secret = create("{\"url\":\"https://c.example/\",\"protected\":true}");
        assertThat(secret).matches("[0-9A-Za-z]{16}");
        assertThat(call("GET", "/" + secret, null, false).header("Location")).isEqualTo("https://c.example/");
        assertThat(call("GET", "/launch-2026", null, false).header("Location")).isEqualTo("https://a.example/");
    }

    @Test
    void aDeletedLinkIsGoneAndASecondDeleteToo() throws Exception {
        start();
        String code = create("{\"url\":\"https://a.example/\"}");
        assertThat(call("DELETE", "/api/links/" + code, null, true).status()).isEqualTo(204);
        assertThat(call("DELETE", "/api/links/" + code, null, true).status()).isEqualTo(410);
        assertThat(call("GET", "/" + code, null, false).status()).isEqualTo(410);
        assertThat(call("GET", "/api/links/" + code, null, true).status()).isEqualTo(410);
        assertThat(call("DELETE", "/api/links/zzzzzzzz", null, true).status()).isEqualTo(404);
    }

    @Test
    void anExpiredLinkIsGoneButStillListed() throws Exception {
        start();
        String code = create("{\"url\":\"https://a.example/\",\"expires_at\":\"2026-11-30T05:00:30+01:00\"}");
        assertThat(call("GET", "/api/links/" + code, null, true).bodyText())
            .contains("\"expires_at\":\"2026-11-30T04:00:30.000Z\"");
        assertThat(call("GET", "/" + code, null, false).status()).isEqualTo(302);
        clock.advance(Duration.ofMinutes(1));
        assertThat(call("GET", "/" + code, null, false).status()).isEqualTo(410);
        assertThat(call("GET", "/api/links", null, true).bodyText()).contains(code);
    }

    @Test
    void servesTheQrCodeOfALiveLinksShortUrlToAnyoneAndRevalidatesItByItsTag() throws Exception {
        start();
        String code = create("{\"url\":\"https://a.example/qr\"}");
        RawResponse qr = get("/api/links/" + code + "/qr.svg");
        assertThat(qr.status()).isEqualTo(200);
        assertThat(qr.header("Content-Type")).isEqualTo("image/svg+xml");
        assertThat(QrImages.decodeSvg(qr.bodyText())).isEqualTo("https://sho.rt/x/" + code);
        assertSecurityHeaders(qr);
        assertThat(qr.header("Cache-Control")).isEqualTo("no-cache");
        String tag = qr.header("ETag");
        assertThat(tag).matches("\"[0-9a-f]{24}\"");

        RawResponse again = get("/api/links/" + code + "/qr.svg", "If-None-Match: \"other\", W/" + tag);
        assertThat(again.status()).isEqualTo(304);
        assertThat(again.body()).isEmpty();
        assertThat(again.header("Content-Length")).as("RFC 9110 §8.6").isNull();
        assertThat(again.header("ETag")).isEqualTo(tag);
        assertThat(get("/api/links/" + code + "/qr.svg", "If-None-Match: \"other\"").status()).isEqualTo(200);

        String other = create("{\"url\":\"https://a.example/qr2\"}");
        assertThat(get("/api/links/" + other + "/qr.svg").header("ETag")).isNotEqualTo(tag);
        assertThat(get("/api/links/zzzzzzzz/qr.svg").status()).isEqualTo(404);
        assertThat(get("/api/links/a/qr.svg").status()).isEqualTo(404);
        assertThat(call("DELETE", "/api/links/" + code, null, true).status()).isEqualTo(204);
        RawResponse gone = get("/api/links/" + code + "/qr.svg", "If-None-Match: " + tag);
        assertThat(gone.status()).as("a deleted link has no QR code, whatever the browser holds").isEqualTo(410);
        assertThat(gone.bodyText()).contains("\"error\":\"gone\"");
    }

    @Test
    void servesTheWebPageAndTheOpenApiDocumentUnderOneSecurityPolicy() throws Exception {
        start();
        RawResponse page = get("/");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.header("Content-Type")).isEqualTo("text/html; charset=utf-8");
        assertThat(page.bodyText()).contains("<script src=\"/ui/app.js\" defer></script>").doesNotContain("<script>");
        for (String file : new String[] {"/", "/ui/app.js", "/ui/app.css", "/ui/icon.svg", "/api/openapi.yaml"}) {
            RawResponse answer = get(file);
            assertThat(answer.status()).as(file).isEqualTo(200);
            assertSecurityHeaders(answer);
            assertThat(answer.header("Cache-Control")).as(file).isEqualTo("no-cache");
            RawResponse current = get(file, "If-None-Match: " + answer.header("ETag"));
            assertThat(current.status()).as(file).isEqualTo(304);
            assertThat(current.body()).as(file).isEmpty();
            assertThat(current.header("Content-Length")).as(file).isNull();
            assertThat(current.header("ETag")).as(file).isEqualTo(answer.header("ETag"));
        }
        assertThat(get("/api/openapi.yaml").bodyText()).contains("/api/links/{code}/qr.svg:");
        assertThat(get("/ui/other.js").status()).isEqualTo(404);
    }

    static void assertSecurityHeaders(RawResponse answer) {
        assertThat(answer.header("Content-Security-Policy")).startsWith("default-src 'self';")
            .doesNotContain("unsafe-inline", "unsafe-eval");
        assertThat(answer.header("X-Content-Type-Options")).isEqualTo("nosniff");
        assertThat(answer.header("Referrer-Policy")).isEqualTo("no-referrer");
    }

    @Test
    void answersUnknownCodesWith404WithoutTouchingTheStore() throws Exception {
        start();
        for (String path : new String[] {"/zzzzzzzz", "/abc", "/a", "/" + "x".repeat(70), "/launch-2026"}) {
            RawResponse response = call("GET", path, null, false);
            assertThat(response.status()).as(path).isEqualTo(404);
            assertThat(response.bodyText()).contains("not_found");
        }
    }

    @Test
    void pagesThroughLinksInCreationOrderLeavingOutDeletedOnes() throws Exception {
        start();
        String a = create("{\"url\":\"https://a.example/\"}");
        String b = create("{\"url\":\"https://b.example/\"}");
        String c = create("{\"url\":\"https://c.example/\"}");
        call("DELETE", "/api/links/" + b, null, true);
        String first = call("GET", "/api/links?limit=1", null, true).bodyText();
        assertThat(first).contains(a).doesNotContain(c).endsWith(",\"next\":\"" + a + "\"}");
        String second = call("GET", "/api/links?after=" + a + "&limit=1", null, true).bodyText();
        assertThat(second).contains(c).doesNotContain(b).endsWith(",\"next\":null}");
        assertThat(call("GET", "/api/links?limit=0", null, true).status()).isEqualTo(400);
        assertThat(call("GET", "/api/links?limit=1001", null, true).status()).isEqualTo(400);
        assertThat(call("GET", "/api/links?limit=+1", null, true).status()).isEqualTo(400);
        assertThat(call("GET", "/api/links?limit=1&limit=2", null, true).bodyText())
            .contains("limit is given more than once");
        assertThat(call("GET", "/api/links?after=" + a + "&after=" + c, null, true).bodyText())
            .contains("after is given more than once");
        assertThat(call("GET", "/api/links?after=nope", null, true).bodyText()).contains("invalid_query");
    }

    @Test
    void reportsStatsHealthReadinessAndMetrics() throws Exception {
        start();
        create("{\"url\":\"https://a.example/\"}");
        assertThat(call("GET", "/api/stats", null, true).bodyText()).isEqualTo(
            "{\"links\":1,\"capacity\":" + capacity() + ",\"visits\":0,\"uptime_s\":0}");
        assertThat(call("GET", "/api/stats", null, false).status()).isEqualTo(401);
        assertThat(call("GET", "/health", null, false).bodyText()).isEqualTo("ok");
        assertThat(call("GET", "/ready", null, false).status()).isEqualTo(200);
        assertThat(call("GET", "/metrics", null, false).bodyText()).contains("hotpath_store_writes_committed_total");
        app.beginDrain();
        assertThat(call("GET", "/ready", null, false).status()).isEqualTo(503);
    }

    @Test
    void metricsAskForTheirBearerTokenWithTheSchemeInAnyCase() throws Exception {
        start("scrambled", Set.of(), "metrics-secret");
        assertThat(metrics(null).status()).isEqualTo(401);
        assertThat(metrics("Bearer metrics-secreT").status()).isEqualTo(401);
        assertThat(metrics("Basic metrics-secret").status()).isEqualTo(401);
        assertThat(metrics("Bearer metrics-secret").status()).isEqualTo(200);
        assertThat(metrics("bearer   metrics-secret").status()).isEqualTo(200);
    }

    private RawResponse metrics(String authorization) {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            return client.send("GET /metrics HTTP/1.1\r\nHost: sho.rt\r\n"
                + (authorization == null ? "" : "Authorization: " + authorization + "\r\n") + "\r\n").read();
        }
    }

    @Test
    void anApiKeyIsReadAsABearerTokenWithTheSchemeInAnyCase() throws Exception {
        start();
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            assertThat(client.send("GET /api/stats HTTP/1.1\r\nHost: a\r\nAuthorization: BEARER " + key + "\r\n\r\n")
                .read().status()).isEqualTo(200);
            assertThat(client.send("GET /api/stats HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer " + key + ",x\r\n\r\n")
                .read().status()).isEqualTo(401);
        }
    }

    @Test
    void bulkCreateAnswersEveryItemInInputOrderAndCommitsTheGoodOnes() throws Exception {
        start();
        create("{\"url\":\"https://a.example/\",\"alias\":\"taken-one\"}");
        RawResponse response = call("POST", "/api/links/bulk", "[{\"url\":\"https://b.example/\"},"
            + "{\"url\":\"ftp://c.example/\"},"
            + "{\"url\":\"https://d.example/\",\"alias\":\"taken-one\"},"
            + "7,"
            + "{\"url\":\"https://e.example/\",\"extra\":{\"nested\":[1,2]}},"
            + "{\"url\":\"https://f.example/\",\"alias\":\"fresh-one\"}]", true);
        assertThat(response.status()).isEqualTo(200);
        String body = response.bodyText();
        assertThat(body).startsWith("{\"results\":[{\"status\":201,\"link\":{\"code\":");
        assertThat(body).contains("{\"status\":400,\"error\":\"invalid_url\",\"message\":")
            .contains("{\"status\":409,\"error\":\"alias_taken\"")
            .contains("{\"status\":400,\"error\":\"malformed_json\"")
            .contains("{\"status\":400,\"error\":\"unknown_field\"")
            .endsWith("\"code\":\"fresh-one\",\"short_url\":\"https://sho.rt/x/fresh-one\",\"long_url\":"
                + "\"https://f.example/\",\"created_at\":\"2026-11-30T04:00:00.123Z\",\"expires_at\":null,"
                + "\"protected\":false,\"visits\":0}}]}");
        assertThat(body.indexOf("b.example")).isLessThan(body.indexOf("invalid_url"));
        assertThat(body.indexOf("alias_taken")).isLessThan(body.indexOf("malformed_json"));
        assertThat(call("GET", "/fresh-one", null, false).header("Location")).isEqualTo("https://f.example/");
        assertThat(call("GET", "/api/stats", null, true).bodyText()).startsWith("{\"links\":3,");
    }

    @Test
    void bulkCreateRefusesMoreThanAThousandItemsAndANonArray() throws Exception {
        start();
        String item = "{\"url\":\"https://a.example/\"}";
        String tooMany = "[" + String.join(",", java.util.Collections.nCopies(1001, item)) + "]";
        RawResponse response = call("POST", "/api/links/bulk", tooMany, true);
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.bodyText()).contains("too_many_items");
        assertThat(call("POST", "/api/links/bulk", item, true).bodyText()).contains("malformed_json");
        assertThat(call("GET", "/api/stats", null, true).bodyText()).startsWith("{\"links\":0,");
    }

    @Test
    void sequentialModeHandsOutBase62Ids() throws Exception {
        start("sequential", Set.of(), null);
        assertThat(create("{\"url\":\"https://a.example/\"}")).isEqualTo("0");
        assertThat(create("{\"url\":\"https://b.example/\"}")).isEqualTo("1");
        assertThat(call("GET", "/1", null, false).header("Location")).isEqualTo("https://b.example/");
        assertThat(call("POST", "/api/links", "{\"url\":\"https://a.example/\",\"alias\":\"abc\"}", true).status())
            .isEqualTo(400);
        assertThat(create("{\"url\":\"https://a.example/\",\"alias\":\"my-alias\"}")).isEqualTo("my-alias");
    }

    @Test
    void keepsEveryLinkAcrossARestart() throws Exception {
        start();
        String code = create("{\"url\":\"https://a.example/kept\"}");
        String gone = create("{\"url\":\"https://a.example/deleted\"}");
        call("DELETE", "/api/links/" + gone, null, true);
        call("GET", "/" + code, null, false);
        stop();
        start();
        assertThat(createdKeyFile).isNull();
        assertThat(call("GET", "/" + code, null, false).header("Location")).isEqualTo("https://a.example/kept");
        assertThat(call("GET", "/" + gone, null, false).status()).isEqualTo(410);
        assertThat(call("GET", "/api/links/" + code, null, true).bodyText()).contains("\"visits\":2");
    }
}
