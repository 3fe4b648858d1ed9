package dev.hotpath.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.testing.RawHttpClient;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Stress on the hand-off from completing threads to event loops: many connections pipeline many
 * requests, most async. Once every async request is parked, worker threads complete them all at once,
 * in one seeded shuffle across every connection, some one by one and some in
 * {@link Deferred#completeTogether} batches, so each connection's completions arrive out of order,
 * from several threads at once, while its loop runs drains between them. Whatever the interleaving,
 * each connection must get every response, in request order, with its own body.
 *
 * <p>Deterministic in outcome, not in schedule: the seed fixes which thread completes what in which
 * order, the scheduler decides the rest. Bounded: a fixed number of requests; the waits have safety
 * timeouts against a hang, never as synchronization.
 */
class DeferredHandOffIT {
    private static final int CONNECTIONS = 24;
    private static final int REQUESTS_PER_CONNECTION = 300;
    /** Every n-th request is answered synchronously, so ready responses queue behind open ones. */
    private static final int SYNC_EVERY = 7;
    private static final int ASYNC_REQUESTS = CONNECTIONS * (REQUESTS_PER_CONNECTION
        - (REQUESTS_PER_CONNECTION + SYNC_EVERY - 1) / SYNC_EVERY);
    private static final int WORKERS = 6;
    private static final int MAX_BATCH = 32;
    private static final long SEED = 20261201L;

    private record Parked(String id, Deferred response) {
        void complete() {
            response.complete(Response.text(200, id));
        }
    }

    private final Queue<Parked> parked = new ConcurrentLinkedQueue<>();
    private final CountDownLatch allParked = new CountDownLatch(ASYNC_REQUESTS);

    @Test
    void everyConnectionGetsEveryResponseInRequestOrderHoweverCompletionsInterleave() throws Exception {
        Routes routes = Routes.builder()
            .get("/park/{id}", (Request request, Deferred response) -> {
                parked.add(new Parked(request.pathParam(0), response));
                allParked.countDown();
            })
            .get("/now/{id}", request -> Response.text(200, request.pathParam(0)))
            .build();
        ServerConfig config = ServerConfig.of(new InetSocketAddress("127.0.0.1", 0)).withEventLoops(2);
        List<RawHttpClient> clients = new ArrayList<>();
        try (HttpServer server = HttpServer.start(config, routes)) {
            for (int c = 0; c < CONNECTIONS; c++) {
                RawHttpClient client = RawHttpClient.connect(server.port());
                clients.add(client);
                client.send(pipelinedRequests(c));
            }
            assertThat(allParked.await(20, TimeUnit.SECONDS)).as("every async request parked").isTrue();

            List<Thread> workers = startWorkersCompletingShuffled();

            for (int c = 0; c < CONNECTIONS; c++) {
                for (int i = 0; i < REQUESTS_PER_CONNECTION; i++) {
                    assertThat(clients.get(c).read().bodyText()).as("connection %d, response %d", c, i)
                        .isEqualTo(id(c, i));
                }
            }
            for (Thread worker : workers) {
                assertThat(worker.join(Duration.ofSeconds(20))).as("worker finished").isTrue();
            }
        } finally {
            clients.forEach(RawHttpClient::close);
        }
    }

    /** Shuffles everything parked, deals it to the workers in turn, and starts them. */
    private List<Thread> startWorkersCompletingShuffled() {
        Random random = new Random(SEED);
        List<Parked> all = new ArrayList<>(parked);
        Collections.shuffle(all, random);
        List<List<List<Parked>>> batchesByWorker = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            batchesByWorker.add(new ArrayList<>());
        }
        for (int from = 0, w = 0; from < all.size(); w = (w + 1) % WORKERS) {
            int to = Math.min(all.size(), from + 1 + random.nextInt(MAX_BATCH));
            batchesByWorker.get(w).add(all.subList(from, to));
            from = to;
        }
        List<Thread> workers = new ArrayList<>();
        for (List<List<Parked>> batches : batchesByWorker) {
            boolean together = random.nextBoolean();
            workers.add(Thread.ofPlatform().start(() -> batches.forEach(batch -> complete(batch, together))));
        }
        return workers;
    }

    private static void complete(List<Parked> batch, boolean together) {
        if (together) {
            Deferred.completeTogether(() -> batch.forEach(Parked::complete));
        } else {
            batch.forEach(Parked::complete);
        }
    }

    private static String pipelinedRequests(int connection) {
        StringBuilder requests = new StringBuilder();
        for (int i = 0; i < REQUESTS_PER_CONNECTION; i++) {
            requests.append(i % SYNC_EVERY == 0 ? "GET /now/" : "GET /park/").append(id(connection, i))
                .append(" HTTP/1.1\r\nHost: a\r\n\r\n");
        }
        return requests.toString();
    }

    /** The body a request's response must carry: its connection and its place in the pipeline. */
    private static String id(int connection, int sequence) {
        return connection + "-" + sequence;
    }
}
