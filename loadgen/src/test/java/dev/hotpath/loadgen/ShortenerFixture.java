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
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A shortener look-alike on the engine that misbehaves on purpose, and counts exactly how often it
 * did, so a test can hold the harness to that count: every answer 500, a wrong {@code Location} every
 * n-th redirect, the same code for every second create, or no answer at all.
 */
final class ShortenerFixture implements AutoCloseable {
    enum Fault { NONE, ALL_500, WRONG_LOCATION_EVERY_1000, DUPLICATE_CODES, SILENT }

    private static final Pattern URL = Pattern.compile("\"url\":\"([^\"]+)\"");
    private final Map<String, String> urls = new ConcurrentHashMap<>();
    private final AtomicLong created = new AtomicLong();
    private final AtomicLong redirects = new AtomicLong();
    final AtomicLong requests = new AtomicLong();
    final AtomicLong faults = new AtomicLong();
    private final List<Deferred> parked = new CopyOnWriteArrayList<>();
    private final HttpServer server;
    private final Fault fault;

    ShortenerFixture(Fault fault) {
        this.fault = fault;
        Routes routes = Routes.builder()
            .get("/ping", request -> answer(Response.text(200, "pong")))
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
                answerLater(response, Response.json(201, link(m.group(1), fault == Fault.DUPLICATE_CODES)));
            })
            .get("/{code}", request -> {
                String url = urls.get(request.pathParam(0));
                if (url == null) {
                    return answer(Response.json(404, "{\"error\":\"not_found\"}"));
                }
                if (fault == Fault.WRONG_LOCATION_EVERY_1000 && redirects.incrementAndGet() % 1000 == 0) {
                    faults.incrementAndGet();
                    return Response.redirect(302, url + "/wrong");
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

    private void answerLater(Deferred deferred, Response response) {
        if (fault == Fault.SILENT) {
            requests.incrementAndGet();
            parked.add(deferred);
        } else {
            deferred.complete(answer(response));
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
        for (Deferred deferred : parked) {
            deferred.complete(Response.text(503, "closing"));
        }
        server.close(Duration.ofSeconds(5));
    }

    static String utf8(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
