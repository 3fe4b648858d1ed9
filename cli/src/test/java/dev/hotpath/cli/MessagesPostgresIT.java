package dev.hotpath.cli;

import static dev.hotpath.cli.MessagesTraffic.accept;
import static dev.hotpath.cli.MessagesTraffic.get;
import static dev.hotpath.cli.MessagesTraffic.id;
import static dev.hotpath.cli.MessagesTraffic.post;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import dev.hotpath.store.RedisConfig;
import dev.hotpath.store.RedisConnections;
import dev.hotpath.store.testing.Await;
import dev.hotpath.store.testing.ThrowawayPostgres;
import dev.hotpath.store.testing.ThrowawayRedis;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hotpath serve messages --store postgres://...} as a process against a PostgreSQL of the
 * test's own that the test kills and stops: creates are {@code 503 store_unavailable} while it is away
 * and stored again as soon as it is back, with no restart; and on the stream path an outage loses no
 * {@code 202} message (stored by a {@code hotpath messages worker --store} process), the backlog drains
 * once the store is back, and the failed deliveries count against no entry (nothing is dead-lettered).
 * {@code --data} with {@code --store} is refused.
 */
@Timeout(180)
class MessagesPostgresIT {

    @TempDir
    Path dir;

    /** The value of one sample of the server's {@code /metrics}. */
    private static double metric(RawHttpClient client, String sample) {
        for (String line : get(client, "/metrics").bodyText().split("\n")) {
            if (line.startsWith(sample + " ")) {
                return Double.parseDouble(line.substring(sample.length() + 1));
            }
        }
        throw new AssertionError("no " + sample + " in /metrics");
    }

    @Test
    void dataAndStoreTogetherAreRefusedWithOneLine() throws Exception {
        String store = "postgres://nobody@127.0.0.1:1/none";
        try (ServerProcess serve = ServerProcess.start(dir.resolve("serve.log"), "messages", "--data",
                 dir.resolve("data").toString(), "--store", store);
             ServerProcess worker = ServerProcess.run(dir.resolve("worker.log"), "messages", "worker", "--stream",
                 "redis://127.0.0.1:1", "--data", dir.resolve("data").toString(), "--store", store)) {
            for (ServerProcess refused : new ServerProcess[] {serve, worker}) {
                assertThat(refused.awaitExit()).isEqualTo(2);
                assertThat(refused.output().strip().lines()).singleElement().asString()
                    .contains("--data and --store exclude each other");
            }
        }
    }

    @Test
    void whilePostgresIsDownCreatesAre503AndTheFirstAfterItIsBackIsStoredWithoutARestart() throws Exception {
        try (ThrowawayPostgres postgres = ThrowawayPostgres.launch();
             ServerProcess server = ServerProcess.start(dir.resolve("server.log"), "messages", "--bind", "127.0.0.1:0",
                 "--store", postgres.uri());
             RawHttpClient client = RawHttpClient.connect(server.awaitPort())) {
            RawResponse before = post(client, "/message", "before");
            assertThat(before.status()).as(before.bodyText()).isEqualTo(201);

            postgres.kill();
            for (int i = 0; i < 3; i++) { // the batch that finds the connection broken, then ones that cannot connect
                RawResponse refused = post(client, "/message", "while down " + i);
                assertThat(refused.status()).as(refused.bodyText()).isEqualTo(503);
                assertThat(refused.bodyText()).startsWith("{\"error\":\"store_unavailable\"");
                assertThat(refused.header("Retry-After")).isEqualTo("1");
            }
            RawResponse unreadable = get(client, "/messages/" + id(before));
            assertThat(unreadable.status()).as(unreadable.bodyText()).isEqualTo(503);
            assertThat(unreadable.bodyText()).startsWith("{\"error\":\"store_unavailable\"");

            postgres.start();
            RawResponse after = post(client, "/message", "after");
            assertThat(after.status()).as("the first create after the restart: %s", after.bodyText()).isEqualTo(201);
            Await.until("reads back", () -> get(client, "/messages/" + id(before)).status() == 200);
            assertThat(get(client, "/messages/" + id(before)).bodyText()).isEqualTo(before.bodyText());
            assertThat(get(client, "/messages/" + id(after)).bodyText()).isEqualTo(after.bodyText());
            assertThat(get(client, "/messages?to=r").bodyText()).doesNotContain("while down");
            assertThat(rows(postgres)).isEqualTo(2);
        }
    }

    /**
     * A server with {@code --worker off} and a {@code hotpath messages worker} process on the same
     * database. The outage is bounded by what the test observes, not by a clock: PostgreSQL stays
     * stopped until the worker's metrics say it has failed to store the backlog more times than would
     * dead-letter an entry ({@code StreamWorker.MAX_DELIVERIES}), then it starts again.
     */
    @Test
    void aStoreOutageLosesNoAcceptedMessageAndDeadLettersNone() throws Exception {
        Map<String, String> accepted = new LinkedHashMap<>();
        try (ThrowawayPostgres postgres = ThrowawayPostgres.launch();
             ThrowawayRedis redis = ThrowawayRedis.launch();
             RedisConnections stream = new RedisConnections(RedisConfig.parse(redis.uri()));
             ServerProcess server = ServerProcess.start(dir.resolve("server.log"), "messages", "--bind", "127.0.0.1:0",
                 "--store", postgres.uri(), "--stream", redis.uri(), "--worker", "off");
             RawHttpClient client = RawHttpClient.connect(server.awaitPort());
             ServerProcess worker = ServerProcess.run(dir.resolve("worker.log"), "messages", "worker", "--stream",
                 redis.uri(), "--store", postgres.uri(), "--metrics-bind", "127.0.0.1:0");
             RawHttpClient workerMetrics = RawHttpClient.connect(worker.awaitPort())) {
            for (int i = 0; i < 50; i++) {
                accept(client, "before " + i, accepted);
            }
            postgres.stop();
            for (int i = 0; i < 200; i++) {
                accept(client, "during " + i, accepted);
            }
            Await.until("the worker to fail more often than an entry may", () ->
                metric(workerMetrics, "hotpath_messages_stream_store_failures_total") > 5);
            postgres.start();
            for (int i = 0; i < 50; i++) {
                accept(client, "after " + i, accepted);
            }
            for (Map.Entry<String, String> message : accepted.entrySet()) {
                Await.until("message " + message.getKey() + " stored",
                    () -> get(client, "/messages/" + message.getKey()).status() == 200);
                assertThat(get(client, "/messages/" + message.getKey()).bodyText()).isEqualTo(message.getValue());
            }
            assertThat(rows(postgres)).isEqualTo(accepted.size());
            Await.until("nothing pending", () -> stream.shared().sync()
                .xpending("hotpath:messages", "hotpath-writers").getCount() == 0);
            assertThat(stream.shared().sync().exists("hotpath:messages:dead")).as("dead letters").isZero();
            assertThat(metric(workerMetrics, "hotpath_messages_dead_letters_total")).isZero();
        }
    }

    private static long rows(ThrowawayPostgres postgres) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", ThrowawayPostgres.USER);
        try (Connection db = DriverManager.getConnection(postgres.jdbcUrl(), properties);
             Statement s = db.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM messages")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
