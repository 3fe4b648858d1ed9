package dev.hotpath.loadgen;

import dev.hotpath.http.AsyncHandler;
import dev.hotpath.http.Deferred;
import dev.hotpath.http.HttpServer;
import dev.hotpath.http.Response;
import dev.hotpath.http.Routes;
import dev.hotpath.http.ServerConfig;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A shortener look-alike on the engine that misbehaves on purpose, and counts exactly how often it
 * did, so a test can hold the harness to that count: every answer 500, a wrong {@code Location} or a
 * body on every n-th redirect, {@code pang} for every n-th ping, the same code for every second create,
 * a create's {@code Location} naming another link, a 404 that is not the API's {@code not_found}, no
 * answer at all, or creates answered only once the test calls {@link #release()}.
 */
final class ShortenerFixture implements AutoCloseable {
    enum Fault {
        NONE, ALL_500, WRONG_LOCATION_EVERY_1000, REDIRECT_BODY_EVERY_1000, PANG_EVERY_1000, DUPLICATE_CODES,
        WRONG_CREATED_LOCATION_EVERY_100, FOREIGN_NOT_FOUND_EVERY_100, SILENT, HELD_UNTIL_RELEASED
    }

    /** A create not answered yet, and the answer it gets if the test releases it. */
    private record Parked(Deferred deferred, Response answer) { }


    private static final Pattern URL = Pattern.compile("\"url\":\"([^\"]+)\"");
    private static final Pattern CODE = Pattern.compile("\"code\":\"([^\"]+)\"");
    private final Map<String, String> urls = new ConcurrentHashMap<>();
    private final AtomicLong created = new AtomicLong();
    private final AtomicLong redirects = new AtomicLong();
    private final AtomicLong pings = new AtomicLong();
    private final AtomicLong misses = new AtomicLong();
    private final AtomicLong creates = new AtomicLong();
    final AtomicLong requests = new AtomicLong();
    final AtomicLong faults = new AtomicLong();
    private final List<Parked> parked = new ArrayList<>();
    private boolean released;
    private final HttpServer server;
    private final Fault fault;

    ShortenerFixture(Fault fault) {
        this.fault = fault;
        Routes routes = Routes.builder()
            .get("/ping", request -> answer(Response.text(200, every(Fault.PANG_EVERY_1000, pings, 1000) ? "pang" : "pong")))
            .post("/api/links/bulk", 4 << 20, request -> {
                StringBuilder out = new StringBuilder("{\"results\":[");
                Matcher m = URL.matcher(utf8(request.bodyBytes()));
                for (int i = 0; m.find(); i++) {
                    out.append(i == 0 ? "" : ",").append("{\"status\":201,\"link\":").append(link(m.group(1), false)).append('}');
                }
                return Response.json(200, out.append("]}").toString());
            })
            .post("/api/links", (AsyncHandler) (request, response) -> {
                Matcher m = URL.matcher(utf8(request.bodyBytes()));
                if (!m.find()) {
                    response.complete(Response.json(400, "{\"error\":\"invalid_url\"}"));
                    return;
                }
                answerLater(response, created(link(m.group(1), fault == Fault.DUPLICATE_CODES)));
            })
            .get("/{code}", request -> {
                String url = urls.get(request.pathParam(0));
                if (url == null) {
                    return answer(every(Fault.FOREIGN_NOT_FOUND_EVERY_100, misses, 100)
                        ? Response.text(404, "<h1>Not Found</h1>")
                        : Response.json(404, "{\"error\":\"not_found\",\"message\":\"no such link\"}"));
                }
                if (every(Fault.WRONG_LOCATION_EVERY_1000, redirects, 1000)) {
                    return Response.redirect(302, url + "/wrong");
                }
                if (every(Fault.REDIRECT_BODY_EVERY_1000, redirects, 1000)) {
                    return Response.builder(302).header("Location", url).body("text/html", utf8Bytes("<a>moved</a>"));
                }
                return answer(Response.redirect(302, url));
            })
            .build();
        server = HttpServer.start(ServerConfig.of(new InetSocketAddress("127.0.0.1", 0)).withEventLoops(1), routes);
    }

    private Response answer(Response response) {
        requests.incrementAndGet();
        if (fault == Fault.ALL_500) {
            faults.incrementAndGet();
            return Response.json(500, "{\"error\":\"internal_error\"}");
        }
        return response;
    }

    /** Whether this answer is the {@code n}-th of {@code counter} under {@code faulty}: counted as a fault if so. */
    private boolean every(Fault faulty, AtomicLong counter, int n) {
        if (fault != faulty || counter.incrementAndGet() % n != 0) {
            return false;
        }
        faults.incrementAndGet();
        return true;
    }

    /** A 201 for a link object, its {@code Location} naming the link, or another one as the fault says. */
    private Response created(String link) {
        Matcher code = CODE.matcher(link);
        code.find();
        String location = "/api/links/" + code.group(1) + (every(Fault.WRONG_CREATED_LOCATION_EVERY_100, creates, 100)
            ? "0" : "");
        return Response.builder(201).header("Location", location).body("application/json", utf8Bytes(link));
    }

    private void answerLater(Deferred deferred, Response response) {
        synchronized (parked) {
            if (fault == Fault.SILENT) {
                requests.incrementAndGet();
            }
            if (fault == Fault.SILENT || fault == Fault.HELD_UNTIL_RELEASED && !released) {
                parked.add(new Parked(deferred, response));
                return;
            }
        }
        deferred.complete(answer(response));
    }

    /** {@link Fault#HELD_UNTIL_RELEASED}: answers every held create now, and every later one at once. */
    void release() {
        List<Parked> held;
        synchronized (parked) {
            released = true;
            held = List.copyOf(parked);
            parked.clear();
        }
        for (Parked p : held) {
            p.deferred().complete(answer(p.answer()));
        }
    }

    /** A link object; with {@code reuse}, every second link gets the code of the one before it. */
    private synchronized String link(String url, boolean reuse) {
        long n = created.incrementAndGet();
        String code = "c" + (reuse && n % 2 == 0 ? n - 1 : n);
        if (reuse && n % 2 == 0) {
            faults.incrementAndGet();
        }
        urls.putIfAbsent(code, url);
        return "{\"code\":\"" + code + "\",\"long_url\":\"" + url + "\"}";
    }

    int port() {
        return server.port();
    }

    @Override
    public void close() {
        List<Parked> held;
        synchronized (parked) {
            held = List.copyOf(parked);
        }
        for (Parked p : held) {
            p.deferred().complete(Response.text(503, "closing"));
        }
        server.close(Duration.ofSeconds(5));
    }

    private static byte[] utf8Bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static String utf8(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
