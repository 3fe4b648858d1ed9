package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import dev.hotpath.store.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scale-out shortener as it is deployed: nodes as processes behind nginx running
 * {@code docs/nginx.conf}, each test with its own PostgreSQL, Redis and nginx ({@link ShortenerCluster}),
 * loaded by {@code hotpath bench} as its own process, which must PASS: every answer checked, no code
 * given twice, every acknowledged create read back through nginx after the run; and a write node
 * killed mid-load loses no acknowledged create.
 */
class ShortenerClusterIT {
    private static final Duration BENCH_DEADLINE = Duration.ofMinutes(8);

    @TempDir
    Path dir;

    /**
     * Two write nodes creating concurrently: 100,000 creates through nginx, spread over both nodes,
     * each committed once (the 201s the nodes sent add up to exactly the creates the harness sent, so
     * nginx passed no create on to a second node), read back through nginx from both nodes.
     */
    @Test
    @Timeout(600)
    void twoWriteNodesTakeAHundredThousandCreatesThroughNginxWithoutGivingACodeTwice() throws Exception {
        try (ShortenerCluster cluster = ShortenerCluster.start(dir, 2, 0)) {
            String output = bench(cluster, "create", "--creates", "100000", "--connections", "32",
                "--duration", "300s");

            assertThat(output).contains("| Attempted / ok | 100,000 / 100,000 |", "| Verified after the run | 100,000 of 100,000 |");
            long total = 0;
            for (ShortenerCluster.Node node : cluster.writeNodes()) {
                long created = responses(node, 201);
                assertThat(created).as("creates answered by %s", node.name()).isPositive();
                total += created;
            }
            assertThat(total).isEqualTo(100_000);
        }
    }

    /**
     * The shortener's day (94% redirects, 5% creates, 1% misses) through nginx on two read nodes and one
     * write node: PASS, and nginx sent every redirect to the read nodes (both served some, the write node
     * none) and every create to the write node.
     */
    @Test
    @Timeout(300)
    void theMixedDayPassesThroughNginxWithRedirectsOnTheReadNodesAndCreatesOnTheWriteNode() throws Exception {
        try (ShortenerCluster cluster = ShortenerCluster.start(dir, 1, 2)) {
            // Closed loop, not a constant rate: the generator shares two cores with four JVMs, PostgreSQL,
            // Redis and nginx, and a rate run's verdict also judges how punctually it woke, which says
            // nothing about where nginx sends what. A closed loop's verdict is every answer checked.
            String output = bench(cluster, "mixed", "--mode", "saturate", "--duration", "5s", "--links", "2000",
                "--connections", "8");

            Matcher attempted = ATTEMPTED.matcher(output);
            assertThat(attempted.find()).as(output).isTrue();
            assertThat(Integer.parseInt(attempted.group(1).replace(",", ""))).as("requests").isPositive();
            assertThat(attempted.group(2)).as("answered right").isEqualTo(attempted.group(1));
            Matcher verified = VERIFIED.matcher(output);
            assertThat(verified.find()).as(output).isTrue();
            assertThat(Integer.parseInt(verified.group(1).replace(",", ""))).as("creates read back").isPositive();
            assertThat(verified.group(2)).isEqualTo(verified.group(1));
            for (ShortenerCluster.Node read : cluster.readNodes()) {
                assertThat(responses(read, 302)).as("redirects served by %s", read.name()).isPositive();
                assertThat(responses(read, 201) + responses(read, 403)).as("API answers of %s", read.name()).isZero();
            }
            ShortenerCluster.Node write = cluster.writeNodes().getFirst();
            assertThat(responses(write, 302)).as("redirects served by the write node").isZero();
            assertThat(responses(write, 201)).as("creates answered by the write node").isPositive();
            theWebPageWorksThroughNginx(cluster);
        }
    }

    /** The page's file from nginx (a read node), and a QR code of a new link (the write node). */
    private static void theWebPageWorksThroughNginx(ShortenerCluster cluster) throws Exception {
        String key = Files.readString(cluster.apiKeyFile()).strip();
        String body = "{\"url\":\"https://example.com/qr\"}";
        try (RawHttpClient client = RawHttpClient.connect(cluster.nginx().port())) {
            RawResponse page = client.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n").read();
            assertThat(page.status()).isEqualTo(200);
            assertThat(page.header("Content-Security-Policy")).startsWith("default-src 'self'");
            RawResponse created = client.send("POST /api/links HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer " + key
                + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body).read();
            Matcher code = Creates.CODE.matcher(created.bodyText());
            assertThat(code.find()).as(created.bodyText()).isTrue();
            RawResponse qr = client.send("GET /api/links/" + code.group(1) + "/qr.svg HTTP/1.1\r\nHost: a\r\n\r\n").read();
            assertThat(qr.status()).as(qr.bodyText()).isEqualTo(200);
            assertThat(qr.header("Content-Type")).isEqualTo("image/svg+xml");
        }
    }

    /**
     * A write node killed with {@code kill -9} mid-load. Creates go through nginx to two write nodes
     * while, beside them, each write node is sent the same aliases directly (one alias, two nodes
     * racing). Once creates are flowing, write node 1 is killed; creates through nginx must go on (on
     * the survivor), then read node 1 is killed too, and write node 1 restarted to create more. Then
     * every acknowledged link (201) resolves on every node still up (302 to its URL), and through
     * nginx, which must pass each redirect on from the dead read node; no code, generated or alias, was
     * acknowledged twice, also across the restart. The only error allowed is nginx's 502 for a create
     * that was in flight on the node killed.
     */
    @Test
    @Timeout(300)
    void everyAcknowledgedCreateResolvesEverywhereAfterAWriteNodeIsKilledMidLoad() throws Exception {
        try (ShortenerCluster cluster = ShortenerCluster.start(dir, 2, 2)) {
            String key = cluster.apiKey();
            ShortenerCluster.Node victim = cluster.writeNodes().get(0);
            ShortenerCluster.Node survivor = cluster.writeNodes().get(1);
            Creates creates = new Creates(key);
            List<Thread> clients = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int port = cluster.nginx().port();
                String prefix = "https://example.com/nginx/" + t + "/";
                clients.add(Thread.ofPlatform().start(() -> creates.throughNginx(port, prefix)));
            }
            for (ShortenerCluster.Node node : cluster.writeNodes()) {
                clients.add(Thread.ofPlatform().start(() -> creates.racingAliases(node.port(), node.name())));
            }

            creates.awaitThroughNginx(1_500);
            creates.killed = true;
            victim.process().sigkill();
            int beforeKill = creates.throughNginx.get();
            creates.awaitThroughNginx(beforeKill + 1_500);
            cluster.readNodes().get(0).process().sigkill();
            creates.stop = true;
            for (Thread client : clients) {
                client.join(Duration.ofSeconds(30));
                assertThat(client.isAlive()).as("a client still running").isFalse();
            }
            ShortenerCluster.Node restarted = cluster.startNode("write1-restarted", "write");
            for (int i = 0; i < 200; i++) {
                creates.createAndRecord(restarted.port(), "https://example.com/restarted/" + i);
            }

            assertThat(creates.failures).isEmpty();
            assertThat(creates.racedAliasesWon.get()).as("aliases raced for and won").isPositive();
            List<Integer> upNodes = List.of(survivor.port(), cluster.readNodes().get(1).port(), restarted.port(),
                cluster.nginx().port());
            for (int port : upNodes) {
                resolvesAll(port, creates.acknowledged);
            }
        }
    }

    /**
     * Creates sent by several client threads, and what came of them: the links acknowledged (code to
     * URL; a code acknowledged twice is a failure) and every unexpected answer.
     */
    private static final class Creates {
        private static final Pattern CODE = Pattern.compile("\"code\":\"([^\"]+)\"");
        final Map<String, String> acknowledged = new ConcurrentHashMap<>();
        final List<String> failures = new CopyOnWriteArrayList<>();
        final AtomicInteger throughNginx = new AtomicInteger();
        final AtomicInteger racedAliasesWon = new AtomicInteger();
        private final String key;
        volatile boolean killed;
        volatile boolean stop;

        Creates(String key) {
            this.key = key;
        }

        /** Creates through nginx until told to stop; a 502 is allowed once the kill has begun. */
        void throughNginx(int port, String prefix) {
            try (RawHttpClient client = RawHttpClient.connect(port)) {
                for (int i = 0; !stop; i++) {
                    String url = prefix + i;
                    RawResponse response = send(client, url, null);
                    if (response.status() == 201) {
                        record(response, url);
                        throughNginx.incrementAndGet();
                    } else if (!(killed && response.status() == 502)) {
                        failures.add("through nginx " + url + ": " + response.status() + " " + response.bodyText());
                    }
                }
            } catch (RuntimeException | AssertionError e) {
                failures.add("through nginx: " + e);
            }
        }

        /**
         * Creates aliases {@code race-0}, {@code race-1}, ... on one write node while the same thread for
         * the other node does the same: each alias is 201 on one node at most, 409 alias_taken on the
         * other. Ends when told to stop, or when its node was killed under it.
         */
        void racingAliases(int port, String node) {
            try (RawHttpClient client = RawHttpClient.connect(port)) {
                for (int i = 0; !stop; i++) {
                    String url = "https://example.com/race/" + node + "/" + i;
                    RawResponse response = send(client, url, "race-" + i);
                    if (response.status() == 201) {
                        record(response, url);
                        racedAliasesWon.incrementAndGet();
                    } else if (response.status() != 409 || !response.bodyText().contains("\"alias_taken\"")) {
                        failures.add(node + " alias race-" + i + ": " + response.status() + " " + response.bodyText());
                    }
                }
            } catch (RuntimeException | AssertionError e) {
                if (!killed) {
                    failures.add(node + " alias race: " + e);
                }
            }
        }

        /** One create on its own connection, which must be acknowledged. */
        void createAndRecord(int port, String url) {
            try (RawHttpClient client = RawHttpClient.connect(port)) {
                RawResponse response = send(client, url, null);
                assertThat(response.status()).as(response.bodyText()).isEqualTo(201);
                record(response, url);
            }
        }

        private RawResponse send(RawHttpClient client, String url, String alias) {
            String body = "{\"url\":\"" + url + "\"" + (alias == null ? "" : ",\"alias\":\"" + alias + "\"") + "}";
            return client.send("POST /api/links HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer " + key
                + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body).read();
        }

        private void record(RawResponse response, String url) {
            Matcher m = CODE.matcher(response.bodyText());
            if (!m.find()) {
                failures.add("no code in " + response.bodyText());
                return;
            }
            String earlier = acknowledged.putIfAbsent(m.group(1), url);
            if (earlier != null) {
                failures.add("code " + m.group(1) + " acknowledged twice: for " + earlier + " and " + url);
            }
        }

        /** Waits, bounded, until {@code count} creates through nginx were acknowledged. */
        void awaitThroughNginx(int count) {
            Await.until(count + " creates through nginx acknowledged", () -> {
                assertThat(failures).isEmpty();
                return throughNginx.get() >= count;
            });
        }
    }

    /** Every link of {@code links} redirects to its URL on {@code port}. */
    private static void resolvesAll(int port, Map<String, String> links) {
        try (RawHttpClient client = RawHttpClient.connect(port)) {
            for (Map.Entry<String, String> link : links.entrySet()) {
                RawResponse response = client.send("GET /" + link.getKey() + " HTTP/1.1\r\nHost: a\r\n\r\n").read();
                assertThat(response.status()).as("port %d, code %s", port, link.getKey()).isEqualTo(302);
                assertThat(response.header("Location")).as("port %d, code %s", port, link.getKey()).isEqualTo(link.getValue());
            }
        }
    }

    /** Runs {@code hotpath bench SCENARIO ...} through the cluster's nginx; returns its output, asserting PASS. */
    private String bench(ShortenerCluster cluster, String scenario, String... flags) throws Exception {
        String[] args = new String[flags.length + 8];
        System.arraycopy(new String[] {"bench", scenario, "--target", cluster.nginx().uri(), "--key-file",
            cluster.apiKeyFile().toString(), "--results", dir.resolve("results").toString()}, 0, args, 0, 8);
        System.arraycopy(flags, 0, args, 8, flags.length);
        try (ServerProcess bench = ServerProcess.run(dir.resolve("bench-" + scenario + ".log"), args)) {
            int status = bench.awaitExit(BENCH_DEADLINE);
            String output = bench.output();
            assertThat(status).as(output + "\nnginx:\n" + cluster.nginx().log()).isZero();
            assertThat(output).contains("\nPASS (");
            return output;
        }
    }

    private static final Pattern ATTEMPTED = Pattern.compile("\\| Attempted / ok \\| ([\\d,]+) / ([\\d,]+) \\|");
    private static final Pattern VERIFIED = Pattern.compile("\\| Verified after the run \\| ([\\d,]+) of ([\\d,]+) \\|");
    private static final Pattern RESPONSES = Pattern.compile("^hotpath_http_responses_total\\{status=\"(\\d{3})\"} (\\S+)$",
        Pattern.MULTILINE);

    /** How many answers of {@code status} {@code node} sent, from its {@code /metrics}. */
    private static long responses(ShortenerCluster.Node node, int status) {
        try (RawHttpClient client = RawHttpClient.connect(node.port())) {
            RawResponse metrics = client.send("GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n").read();
            assertThat(metrics.status()).isEqualTo(200);
            Matcher m = RESPONSES.matcher(metrics.bodyText());
            while (m.find()) {
                if (Integer.parseInt(m.group(1)) == status) {
                    return (long) Double.parseDouble(m.group(2));
                }
            }
            return 0;
        }
    }
}
