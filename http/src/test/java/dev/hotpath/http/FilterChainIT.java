package dev.hotpath.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.filters.BearerAuth;
import dev.hotpath.http.filters.RequestIds;
import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The middleware chain on a real server: order of {@code before} and {@code after}, headers added by
 * filters on every kind of answer (sync, direct, async, queued behind async, short-circuit, failure),
 * and routes outside the chain untouched.
 */
class FilterChainIT {
    private static final String AUTH = "Authorization: Bearer tok-1\r\n";
    private final BlockingQueue<String> events = new LinkedBlockingQueue<>();
    private final Map<String, Deferred> parked = new ConcurrentHashMap<>();
    private final HttpServer server;

    FilterChainIT() {
        Filter recorder = new Filter() {
            @Override
            public Response before(Exchange exchange) {
                events.add("before " + exchange.request().path());
                return null;
            }

            @Override
            public void after(Exchange exchange) {
                byte[] path = new byte[exchange.pathLength()];
                exchange.copyPath(path, 0);
                events.add("after " + new String(path, StandardCharsets.US_ASCII) + " " + exchange.status()
                    + (exchange.request() == null ? " (later)" : ""));
            }
        };
        Filter refuseTeapots = exchange -> exchange.request().path().equals("/teapot") ? Response.text(418, "no") : null;
        Routes routes = Routes.builder()
            .get("/open", request -> Response.text(200, "open"))
            .filters(FilterChain.of(() -> recorder, RequestIds.factory(), BearerAuth.factory("tok-1"), () -> refuseTeapots))
            .get("/sync", request -> {
                events.add("handler /sync");
                return Response.text(200, "sync");
            })
            .get("/teapot", request -> Response.text(200, "never"))
            .get("/throws", request -> {
                throw new IllegalStateException("boom");
            })
            .route(Method.GET, "/direct", Routes.DEFAULT_BODY_LIMIT, (DirectHandler) (request, responder) ->
                responder.send(Response.text(200, "direct")))
            .route(Method.GET, "/streamed", Routes.DEFAULT_BODY_LIMIT, (DirectHandler) (request, responder) ->
                responder.stream(201, ContentType.JSON, 2).write("{}".getBytes(StandardCharsets.US_ASCII)))
            .route(Method.GET, "/streamed-short", Routes.DEFAULT_BODY_LIMIT, (DirectHandler) (request, responder) ->
                responder.stream(200, ContentType.JSON, 5).write("{}".getBytes(StandardCharsets.US_ASCII)))
            .get("/async/{id}", (Request request, Deferred response) -> {
                parked.put(request.pathParam(0), response);
                events.add("parked " + request.pathParam(0));
            })
            .filters(FilterChain.NONE)
            .get("/after-none", request -> Response.text(200, "none"))
            .build();
        server = HttpServer.start(ServerConfig.of(new InetSocketAddress("127.0.0.1", 0)).withEventLoops(1), routes);
    }

    @AfterEach
    void stop() {
        server.close(Duration.ofSeconds(5));
    }

    @Test
    void runsBeforesInOrderAndAftersOnceTheAnswerIsWrittenWithTheAddedHeader() throws InterruptedException {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse response = client.send("GET /sync HTTP/1.1\r\nHost: h\r\n" + AUTH + "\r\n").read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.bodyText()).isEqualTo("sync");
            assertThat(response.header("X-Request-Id")).matches("[0-9a-f]{12}-[0-9a-f]{12}");
            assertThat(next()).isEqualTo("before /sync");
            assertThat(next()).isEqualTo("handler /sync");
            assertThat(next()).isEqualTo("after /sync 200");
        }
    }

    @Test
    void aStreamedAnswerCarriesTheAddedHeaderAndRunsTheAftersWithItsStatus() throws InterruptedException {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse response = client.send("GET /streamed HTTP/1.1\r\nHost: h\r\n" + AUTH + "\r\n").read();
            assertThat(response.status()).isEqualTo(201);
            assertThat(response.bodyText()).isEqualTo("{}");
            assertThat(response.header("X-Request-Id")).matches("[0-9a-f]{12}-[0-9a-f]{12}");
            assertThat(next()).isEqualTo("before /streamed");
            assertThat(next()).isEqualTo("after /streamed 201");
            client.send("GET /sync HTTP/1.1\r\nHost: h\r\n" + AUTH + "\r\n").read();
            assertThat(next()).as("one after per answer").isEqualTo("before /sync");
        }
    }

    @Test
    void aStreamedAnswerCutShortIsA500WithTheAddedHeaderOnceAndOneAfter() throws InterruptedException {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse response = client.send("GET /streamed-short HTTP/1.1\r\nHost: h\r\n" + AUTH + "\r\n").read();
            assertThat(response.status()).isEqualTo(500);
            assertThat(response.headers().get("x-request-id")).hasSize(1);
            assertThat(next()).isEqualTo("before /streamed-short");
            assertThat(next()).isEqualTo("after /streamed-short 500");
            client.send("GET /sync HTTP/1.1\r\nHost: h\r\n" + AUTH + "\r\n").read();
            assertThat(next()).as("one after per answer").isEqualTo("before /sync");
        }
    }

    @Test
    void echoesAWellFormedClientIdAndReplacesAnyOther() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /sync HTTP/1.1\r\nHost: h\r\nX-Request-Id: trace.A-1_b\r\n" + AUTH + "\r\n");
            assertThat(client.read().header("X-Request-Id")).isEqualTo("trace.A-1_b");
            client.send("GET /sync HTTP/1.1\r\nHost: h\r\nX-Request-Id: a b\r\n" + AUTH + "\r\n");
            assertThat(client.read().header("X-Request-Id")).matches("[0-9a-f]{12}-[0-9a-f]{12}");
            client.send("GET /sync HTTP/1.1\r\nHost: h\r\nX-Request-Id: " + "x".repeat(65) + "\r\n" + AUTH + "\r\n");
            String made = client.read().header("X-Request-Id");
            assertThat(made).matches("[0-9a-f]{12}-[0-9a-f]{12}");
            client.send("GET /sync HTTP/1.1\r\nHost: h\r\n" + AUTH + "\r\n");
            assertThat(client.read().header("X-Request-Id")).isNotEqualTo(made).startsWith(made.substring(0, 13));
        }
    }

    @Test
    void aFilterThatAnswersSkipsTheRestAndStillGetsItsAfter() throws InterruptedException {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            for (String auth : new String[] {"", "Authorization: Bearer tok-2\r\n", "Authorization: Basic tok-1\r\n",
                "Authorization: Bearer tok-10\r\n", "Authorization: Bearer\r\n"}) {
                RawResponse refused = client.send("GET /sync HTTP/1.1\r\nHost: h\r\n" + auth + "\r\n").read();
                assertThat(refused.status()).as(auth).isEqualTo(401);
                assertThat(refused.header("WWW-Authenticate")).isEqualTo("Bearer");
                assertThat(refused.header("X-Request-Id")).isNotNull();
                assertThat(next()).isEqualTo("before /sync");
                assertThat(next()).isEqualTo("after /sync 401");
            }
            RawResponse accepted = client.send("GET /sync HTTP/1.1\r\nHost: h\r\nauthorization: bearer   tok-1\r\n\r\n").read();
            assertThat(accepted.status()).isEqualTo(200);
            RawResponse teapot = client.send("GET /teapot HTTP/1.1\r\nHost: h\r\n" + AUTH + "\r\n").read();
            assertThat(teapot.status()).isEqualTo(418);
            assertThat(teapot.bodyText()).isEqualTo("no");
        }
    }

    @Test
    void anAsyncAnswerAndTheOneQueuedBehindItKeepTheirOwnHeadersAndAfters() throws InterruptedException {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /async/1 HTTP/1.1\r\nHost: h\r\nX-Request-Id: first\r\n" + AUTH + "\r\n"
                + "GET /direct HTTP/1.1\r\nHost: h\r\nX-Request-Id: second\r\n" + AUTH + "\r\n");
            assertThat(next()).isEqualTo("before /async/1");
            assertThat(next()).isEqualTo("parked 1");
            assertThat(next()).isEqualTo("before /direct");
            parked.remove("1").complete(Response.text(200, "later"));
            RawResponse first = client.read();
            RawResponse second = client.read();
            assertThat(first.bodyText()).isEqualTo("later");
            assertThat(first.header("X-Request-Id")).isEqualTo("first");
            assertThat(second.bodyText()).isEqualTo("direct");
            assertThat(second.header("X-Request-Id")).isEqualTo("second");
            assertThat(next()).isEqualTo("after /async/1 200 (later)");
            assertThat(next()).isEqualTo("after /direct 200 (later)");
        }
    }

    @Test
    void lateAnswersCarryTheirOwnHeadersAndAftersRequestAfterRequest() throws InterruptedException {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            for (String id : new String[] {"1", "a-longer-id-than-the-first", "3"}) {
                client.send("GET /async/" + id + " HTTP/1.1\r\nHost: h\r\nX-Request-Id: req-" + id + "\r\n" + AUTH + "\r\n");
                assertThat(next()).isEqualTo("before /async/" + id);
                assertThat(next()).isEqualTo("parked " + id);
                parked.remove(id).completeOnLoop(responder ->
                    responder.stream(201, ContentType.JSON, 2).write("{}".getBytes(StandardCharsets.US_ASCII)));
                RawResponse answer = client.read();
                assertThat(answer.status()).isEqualTo(201);
                assertThat(answer.headers().get("x-request-id")).containsExactly("req-" + id);
                assertThat(next()).isEqualTo("after /async/" + id + " 201 (later)");
            }
            client.send("GET /async/4 HTTP/1.1\r\nHost: h\r\nX-Request-Id: req-4\r\n" + AUTH + "\r\n");
            assertThat(next()).isEqualTo("before /async/4");
            assertThat(next()).isEqualTo("parked 4");
            parked.remove("4").completeOnLoop(responder -> responder.stream(200, ContentType.JSON, 5));
            RawResponse failed = client.read();
            assertThat(failed.status()).isEqualTo(500);
            assertThat(failed.headers().get("x-request-id")).containsExactly("req-4");
            assertThat(next()).isEqualTo("after /async/4 500 (later)");
            client.send("GET /sync HTTP/1.1\r\nHost: h\r\n" + AUTH + "\r\n").read();
            assertThat(next()).as("one after per answer").isEqualTo("before /sync");
        }
    }

    @Test
    void aFailingHandlerIsA500ThatStillCarriesTheHeaders() throws InterruptedException {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse response = client.send("GET /throws HTTP/1.1\r\nHost: h\r\nX-Request-Id: boom\r\n" + AUTH + "\r\n").read();
            assertThat(response.status()).isEqualTo(500);
            assertThat(response.header("X-Request-Id")).isEqualTo("boom");
            assertThat(next()).isEqualTo("before /throws");
            assertThat(next()).isEqualTo("after /throws 500");
        }
    }

    @Test
    void headGetsTheHeadersWithoutTheBody() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse head = client.send("HEAD /sync HTTP/1.1\r\nHost: h\r\nX-Request-Id: h1\r\n" + AUTH + "\r\n").read(true);
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.header("X-Request-Id")).isEqualTo("h1");
            assertThat(head.header("Content-Length")).isEqualTo("4");
        }
    }

    @Test
    void routesOutsideTheChainAndUnknownPathsRunNoFilter() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            for (String path : new String[] {"/open", "/after-none", "/nowhere"}) {
                RawResponse response = client.send("GET " + path + " HTTP/1.1\r\nHost: h\r\n\r\n").read();
                assertThat(response.status()).as(path).isIn(200, 404);
                assertThat(response.header("X-Request-Id")).as(path).isNull();
            }
            RawResponse notAllowed = client.send("POST /sync HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n").read();
            assertThat(notAllowed.status()).isEqualTo(405);
            assertThat(notAllowed.header("X-Request-Id")).isNull();
        }
        assertThat(events).isEmpty();
    }

    private String next() throws InterruptedException {
        String event = events.poll(20, TimeUnit.SECONDS);
        if (event == null) {
            throw new AssertionError("no filter or handler event within the safety timeout");
        }
        return event;
    }
}
