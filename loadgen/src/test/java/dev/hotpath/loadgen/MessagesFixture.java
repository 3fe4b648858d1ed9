package dev.hotpath.loadgen;

import dev.hotpath.http.HttpServer;
import dev.hotpath.http.Request;
import dev.hotpath.http.Response;
import dev.hotpath.http.Routes;
import dev.hotpath.http.ServerConfig;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A messages-service look-alike ({@code docs/MESSAGES.md}: {@code POST /message},
 * {@code POST /message-fast}, {@code GET /messages/{id}}) in memory, right in every answer, but every
 * {@code n}-th message it acknowledges with a correct 201 (or the fast path's status) is never stored,
 * as a server that answered before its commit would lose it in a crash. It counts how many it dropped
 * and keeps their ids. A message of the fast path is readable only {@code readableAfter} after its
 * acknowledgement, as if a stream worker stored it then.
 */
final class MessagesFixture implements AutoCloseable {
    private static final Pattern MESSAGE =
        Pattern.compile("\\{\"from\":\"([^\"]*)\",\"to\":\"([^\"]*)\",\"message\":\"([^\"]*)\"}");
    private static final long MILLIS = 1_764_547_200_000L; // 2025-12-01T00:00:00Z
    private static final String CREATED_AT = "2025-12-01T00:00:00.000Z";

    final AtomicLong dropped = new AtomicLong();
    final List<String> droppedIds = new CopyOnWriteArrayList<>();
    private final int dropEvery;
    private final int fastStatus;
    private final long readableAfterNanos;
    private final Map<String, String> stored = new HashMap<>();
    private final Map<String, Long> readableAt = new HashMap<>();
    private long created;
    private final HttpServer server;

    /** @param dropEvery every how many acknowledged messages one is not stored (0: none) */
    MessagesFixture(int dropEvery) {
        this(dropEvery, 202, Duration.ZERO);
    }

    /**
     * @param dropEvery every how many acknowledged messages one is not stored (0: none)
     * @param fastStatus the status {@code POST /message-fast} acknowledges with (the contract's is 202)
     * @param readableAfter how long after its acknowledgement a fast-path message becomes readable
     */
    MessagesFixture(int dropEvery, int fastStatus, Duration readableAfter) {
        this.dropEvery = dropEvery;
        this.fastStatus = fastStatus;
        this.readableAfterNanos = readableAfter.toNanos();
        Routes routes = Routes.builder()
            .post("/message", request -> create(request, 201, 0))
            .post("/message-fast", request -> create(request, this.fastStatus, readableAfterNanos))
            .get("/messages/{id}", request -> read(request.pathParam(0)))
            .build();
        server = HttpServer.start(ServerConfig.of(new InetSocketAddress("127.0.0.1", 0)).withEventLoops(1), routes);
    }

    int port() {
        return server.port();
    }

    private synchronized Response create(Request request, int status, long delayNanos) {
        Matcher m = MESSAGE.matcher(new String(request.bodyBytes(), StandardCharsets.UTF_8));
        if (!m.matches()) {
            return Response.json(400, "{\"error\":\"invalid_message\",\"message\":\"fixture\"}");
        }
        long n = ++created;
        String id = String.format("%08x-%04x-7%03x-8%03x-%012x", MILLIS >>> 16, MILLIS & 0xFFFF, n >>> 44 & 0xFFF,
            n >>> 32 & 0xFFF, n & 0xFFFF_FFFFL);
        String json = "{\"id\":\"" + id + "\",\"from\":\"" + m.group(1) + "\",\"to\":\"" + m.group(2) + "\",\"message\":\""
            + m.group(3) + "\",\"created_at\":\"" + CREATED_AT + "\"}";
        if (dropEvery > 0 && n % dropEvery == 0) {
            dropped.incrementAndGet();
            droppedIds.add(id);
        } else {
            stored.put(id, json);
            if (delayNanos > 0) {
                readableAt.put(id, System.nanoTime() + delayNanos);
            }
        }
        return Response.json(status, json);
    }

    private synchronized Response read(String id) {
        String json = stored.get(id);
        Long at = readableAt.get(id);
        if (at != null && System.nanoTime() - at < 0) {
            json = null;
        }
        return json != null ? Response.json(200, json)
            : Response.json(404, "{\"error\":\"not_found\",\"message\":\"no message with this id\"}");
    }

    @Override
    public void close() {
        server.close();
    }
}
