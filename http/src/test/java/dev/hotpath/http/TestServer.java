package dev.hotpath.http;

import dev.hotpath.http.testing.MutableClock;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * A server on 127.0.0.1:0 with routes that let socket tests steer timing without sleeping:
 * {@code /slow/{id}} parks its {@link Deferred} until the test completes it, {@code /seen/{n}} reports
 * each request it handled, {@code /to/{n}} redirects to the n-th value added to {@link #locations}
 * straight from the arena, {@code /zeros/{n}} answers n zero bytes, {@code /maybe/{id}} is a direct
 * handler that answers {@code now-...} ids at once and defers (parks) the others, {@code /stream/{n}}
 * streams its body ({@link #parts}) and the {@code /stream-...} routes misuse a streamed body, and the clock is a
 * {@link MutableClock}.
 */
final class TestServer implements AutoCloseable {
    static final Response PONG = Response.text(200, "pong");

    final MutableClock clock = new MutableClock(Instant.parse("2026-11-30T00:00:00Z"));
    final PrometheusRegistry registry = new PrometheusRegistry();
    final HttpServer server;
    final HeaderArena locations = new HeaderArena();
    private final java.util.List<Long> locationHandles = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Map<String, Deferred> parked = new ConcurrentHashMap<>();
    private final BlockingQueue<String> events = new LinkedBlockingQueue<>();

    TestServer() {
        this(limits -> limits);
    }

    TestServer(UnaryOperator<ServerLimits> limits) {
        this(limits, Transport.AUTO);
    }

    TestServer(UnaryOperator<ServerLimits> limits, Transport transport) {
        Routes routes = Routes.builder()
            .get("/ping", request -> PONG)
            .post("/echo", request -> Response.of(200, "application/octet-stream", request.bodyBytes()))
            .get("/seq/{n}", request -> Response.text(200, request.pathParam(0)))
            .get("/zeros/{n}", request -> Response.of(200, "application/octet-stream",
                new byte[Integer.parseInt(request.pathParam(0))]))
            .get("/seen/{n}", request -> {
                events.add("seen " + request.pathParam(0));
                return Response.text(200, request.pathParam(0));
            })
            .get("/slow/{id}", (Request request, Deferred response) -> {
                String id = request.pathParam(0);
                parked.put(id, response);
                events.add("parked " + id);
            })
            .get("/fail", request -> {
                throw new IllegalStateException("boom");
            })
            .get("/fail/overflow", request -> {
                throw new StackOverflowError();
            })
            .get("/fail/linkage", request -> {
                throw new NoClassDefFoundError("dev/hotpath/Gone");
            })
            .get("/metrics", new MetricsEndpoint(registry))
            .route(Method.GET, "/to/{n}", Routes.DEFAULT_BODY_LIMIT, (DirectHandler) (request, responder) ->
                responder.redirect(302, locations, locationHandles.get(Integer.parseInt(request.pathParam(0)))))
            .route(Method.HEAD, "/to/{n}", Routes.DEFAULT_BODY_LIMIT, (DirectHandler) (request, responder) ->
                responder.redirect(301, locations, locationHandles.get(Integer.parseInt(request.pathParam(0)))))
            .route(Method.GET, "/maybe/{id}", Routes.DEFAULT_BODY_LIMIT, (DirectHandler) (request, responder) -> {
                String id = request.pathParam(0);
                if (id.startsWith("now")) {
                    responder.send(Response.text(200, id));
                    return;
                }
                Deferred later = responder.defer();
                if (later != null) {
                    parked.put(id, later);
                    events.add("parked " + id);
                }
            })
            .route(Method.GET, "/direct/defer-then-throw", Routes.DEFAULT_BODY_LIMIT, (DirectHandler) (request, responder) -> {
                responder.defer();
                throw new IllegalStateException("boom after deferring");
            })
            .route(Method.GET, "/direct/silent", Routes.DEFAULT_BODY_LIMIT, (DirectHandler) (request, responder) -> { })
            .route(Method.GET, "/direct/throws", Routes.DEFAULT_BODY_LIMIT, (DirectHandler) (request, responder) -> {
                throw new IllegalStateException("boom");
            })
            .route(Method.GET, "/stream/{n}", Routes.DEFAULT_BODY_LIMIT, (DirectHandler) (request, responder) ->
                streamParts(Integer.parseInt(request.pathParam(0)), responder))
            .route(Method.GET, "/stream-short", Routes.DEFAULT_BODY_LIMIT, (DirectHandler) (request, responder) ->
                responder.stream(200, ContentType.JSON, 10).write(ascii("[1,2]")))
            .route(Method.GET, "/stream-long", Routes.DEFAULT_BODY_LIMIT, (DirectHandler) (request, responder) ->
                responder.stream(200, ContentType.JSON, 3).write(ascii("[1,2]")))
            .route(Method.GET, "/stream-huge", Routes.DEFAULT_BODY_LIMIT, (DirectHandler) (request, responder) ->
                responder.stream(200, ContentType.JSON, Integer.MAX_VALUE).write(ascii("[]")))
            .route(Method.GET, "/stream-then-throw", Routes.DEFAULT_BODY_LIMIT, (DirectHandler) (request, responder) -> {
                responder.stream(200, ContentType.JSON, 2).write(ascii("[]"));
                throw new IllegalStateException("boom after a whole body");
            })
            .route(Method.GET, "/stream-kept", Routes.DEFAULT_BODY_LIMIT, (DirectHandler) (request, responder) -> {
                keptSink = responder.stream(200, ContentType.JSON, 4);
                keptSink.write(ascii("[]"));
                keptSink.write(ascii("[]"));
            })
            .route(Method.GET, "/direct/twice", Routes.DEFAULT_BODY_LIMIT, (DirectHandler) (request, responder) -> {
                responder.send(PONG);
                responder.send(Response.text(200, "second"));
            })
            .build();
        ServerConfig config = ServerConfig.of(new InetSocketAddress("127.0.0.1", 0))
            .withEventLoops(2).withTransport(transport).withClock(clock).withMetrics(registry)
            .withLimits(limits.apply(ServerLimits.DEFAULTS));
        server = HttpServer.start(config, routes);
    }

    /** The sink {@code /stream-kept} held on to past its handler call. */
    volatile BodySink keptSink;

    /**
     * {@code /stream/{n}}'s answer: {@code ["part-0",...,"part-<n-1>"]} as JSON, its length counted
     * first, then written piece by piece through every kind of write a sink has.
     */
    private static void streamParts(int parts, Responder responder) {
        byte[] open = ascii("\"part-");
        int length = 2 + Math.max(0, parts - 1);
        for (int i = 0; i < parts; i++) {
            length += open.length + BodySink.decimalLength(i) + 1;
        }
        BodySink body = responder.stream(200, ContentType.JSON, length).writeByte('[');
        for (int i = 0; i < parts; i++) {
            if (i > 0) {
                body.writeByte(',');
            }
            body.write(ascii("x" + "\"part-"), 1, open.length).writeDecimal(i).writeByte('"');
        }
        body.writeByte(']');
    }

    /** The JSON {@code /stream/{n}} answers. */
    static String parts(int parts) {
        return java.util.stream.IntStream.range(0, parts).mapToObj(i -> "\"part-" + i + "\"")
            .collect(java.util.stream.Collectors.joining(",", "[", "]"));
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** Adds a redirect target; {@code /to/<index>} answers with it. */
    int addLocation(String location) {
        locationHandles.add(locations.add(location));
        return locationHandles.size() - 1;
    }

    int port() {
        return server.port();
    }

    /** Waits for the next event a route reported ("parked 1", "seen 3"); fails after a safety timeout. */
    String nextEvent() throws InterruptedException {
        String event = events.poll(20, TimeUnit.SECONDS);
        if (event == null) {
            throw new AssertionError("no server event within the safety timeout");
        }
        return event;
    }

    /** Completes parked request {@code id} with body {@code "slow <id>"}. */
    void complete(String id) {
        Deferred deferred = take(id);
        events.add("completed " + id);
        deferred.complete(Response.of(200, "text/plain", ("slow " + id).getBytes(StandardCharsets.US_ASCII)));
    }

    /** Completes parked request {@code id} with {@code answer}, which the loop writes in its turn. */
    void completeOnLoop(String id, LateAnswer answer) {
        take(id).completeOnLoop(answer);
    }

    /** The slot of parked request {@code id}, no longer parked: for a test that completes it itself. */
    Deferred take(String id) {
        Deferred deferred = parked.remove(id);
        if (deferred == null) {
            throw new AssertionError("request " + id + " is not parked");
        }
        return deferred;
    }

    @Override
    public void close() {
        server.close(java.time.Duration.ofSeconds(5));
    }
}
