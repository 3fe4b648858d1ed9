package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scale-out shortener as it is deployed: nodes as processes behind nginx running
 * {@code docs/nginx.conf}, each test with its own PostgreSQL, Redis and nginx ({@link ShortenerCluster}),
 * loaded by {@code hotpath bench} as its own process, which must PASS: every answer checked, no code
 * given twice, every acknowledged create read back through nginx after the run.
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
     * The shortener's day (94% redirects, 5% creates, 1% misses) at a constant rate through nginx on
     * two read nodes and one write node: PASS, and nginx sent every redirect to the read nodes (both
     * served some, the write node none) and every create to the write node.
     */
    @Test
    @Timeout(300)
    void theMixedDayPassesThroughNginxWithRedirectsOnTheReadNodesAndCreatesOnTheWriteNode() throws Exception {
        try (ShortenerCluster cluster = ShortenerCluster.start(dir, 1, 2)) {
            // The generator shares two cores with four JVMs, PostgreSQL, Redis and nginx: its wake-ups
            // may run later than the 5 ms a dedicated core keeps, which says nothing about the cluster.
            String output = bench(cluster, "mixed", "--mode", "rate", "--rps", "400", "--duration", "10s",
                "--links", "2000", "--connections", "16", "--max-generator-lag-ms", "50");

            assertThat(output).contains("| Attempted / ok | 4,000 / 4,000 |");
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
