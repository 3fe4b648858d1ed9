package dev.hotpath.cli;

import static dev.hotpath.cli.MessagesTraffic.accept;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import dev.hotpath.store.RedisConfig;
import dev.hotpath.store.RedisConnections;
import dev.hotpath.store.SqliteDatabase;
import dev.hotpath.store.testing.Await;
import dev.hotpath.store.testing.ThrowawayRedis;
import io.lettuce.core.Consumer;
import io.lettuce.core.Limit;
import io.lettuce.core.models.stream.PendingMessage;
import io.lettuce.core.Range;
import io.lettuce.core.XPendingArgs;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hotpath serve messages --stream URI --worker off} and {@code hotpath messages worker} as two
 * processes on one data directory: the pair is allowed by the directory lock, and when the worker is
 * killed with {@code kill -9} holding entries it read but could not commit (a test connection holds
 * SQLite's write lock), another worker claims them: every message answered {@code 202} is stored
 * exactly once; also with twenty workers killed so, one after another, while a client keeps posting.
 * The second worker serves its metrics ({@code --metrics-bind}).
 */
@Timeout(180)
class MessagesStreamWorkerIT {
    private static final int MESSAGES = 600;

    @TempDir
    Path dir;

    private static final Pattern CONSUMER = Pattern.compile("hotpath messages worker (\\S+): storing ");
    private static final int KILLS = 20;
    private static final Duration STUCK = Duration.ofMillis(500);

    private ServerProcess worker(String name, ThrowawayRedis redis, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("messages", "worker", "--stream", redis.uri(),
            "--data", dir.resolve("data").toString(), "--durability", "normal", "--claim-idle", "300ms"));
        args.addAll(List.of(extra));
        ServerProcess worker = ServerProcess.run(dir.resolve(name + ".log"), args.toArray(String[]::new));
        Await.until("worker " + name + " to start", () -> {
            assertThat(worker.process.isAlive()).as(worker.output()).isTrue();
            return worker.output().contains(": storing ");
        });
        return worker;
    }

    @Test
    void everyAcceptedMessageIsStoredOnceAcrossAWorkerKilledWithKillNine() throws Exception {
        Map<String, String> accepted = new LinkedHashMap<>();
        Path database = dir.resolve("data/messages.db");
        try (ThrowawayRedis redis = ThrowawayRedis.launch();
             RedisConnections stream = new RedisConnections(RedisConfig.parse(redis.uri()));
             ServerProcess server = ServerProcess.start(dir.resolve("server.log"), "messages", "--bind", "127.0.0.1:0",
                 "--data", dir.resolve("data").toString(), "--durability", "normal", "--stream", redis.uri(),
                 "--worker", "off");
             RawHttpClient client = RawHttpClient.connect(server.awaitPort())) {
            ServerProcess first = worker("worker1", redis);
            for (int i = 0; i < MESSAGES / 2; i++) {
                accept(client, "stored by the first " + i, accepted);
            }
            // Hold SQLite's write lock: the first worker reads the next entries, cannot commit them, and
            // dies with them pending, delivered to it and never acknowledged.
            try (Connection blocker = SqliteDatabase.open(database);
                 Statement s = blocker.createStatement()) {
                s.execute("PRAGMA busy_timeout=10000");
                s.execute("BEGIN IMMEDIATE");
                for (int i = MESSAGES / 2; i < MESSAGES; i++) {
                    accept(client, "left pending " + i, accepted);
                }
                Await.until("the first worker to read them", () -> pending(stream) > 0);
                first.sigkill();
                assertThat(pending(stream)).as("pending on the dead worker").isPositive();
                s.execute("ROLLBACK");
            }
            try (ServerProcess second = worker("worker2", redis, "--metrics-bind", "127.0.0.1:0");
                 RawHttpClient metrics = RawHttpClient.connect(second.awaitPort())) {
                for (Map.Entry<String, String> message : accepted.entrySet()) {
                    String get = "GET /messages/" + message.getKey() + " HTTP/1.1\r\nHost: a\r\n\r\n";
                    AtomicReference<RawResponse> answer = new AtomicReference<>();
                    Await.until("message " + message.getKey() + " to be stored", () -> {
                        assertThat(second.process.isAlive()).as(second.output()).isTrue();
                        answer.set(client.send(get).read());
                        return answer.get().status() != 404;
                    }, second::output);
                    RawResponse read = answer.get();
                    assertThat(read.status()).isEqualTo(200);
                    assertThat(read.bodyText()).isEqualTo(message.getValue());
                }
                Await.until("no entry left pending", () -> pending(stream) == 0);
                assertThat(stream.shared().sync().xlen("hotpath:messages:dead")).isZero();
                String scraped = metrics.send("GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n").read().bodyText();
                Matcher stored = Pattern.compile("(?m)^hotpath_messages_stream_stored_total (\\S+)$").matcher(scraped);
                assertThat(stored.find()).as(scraped).isTrue();
                assertThat(Double.parseDouble(stored.group(1))).as("stored by the second worker")
                    .isGreaterThanOrEqualTo(MESSAGES / 2.0);
                assertThat(scraped).contains("hotpath_messages_dead_letters_total 0.0", "hotpath_http_");
                assertThat(metrics.send("GET /health HTTP/1.1\r\nHost: a\r\n\r\n").read().bodyText())
                    .isEqualTo("{\"status\":\"ok\"}");
                assertThat(metrics.send("GET /ready HTTP/1.1\r\nHost: a\r\n\r\n").read().status()).isEqualTo(200);
            }
        }
        try (Connection db = SqliteDatabase.open(database);
             Statement s = db.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*), count(DISTINCT id) FROM messages")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isEqualTo(MESSAGES);
            assertThat(rs.getLong(2)).isEqualTo(MESSAGES);
        }
    }

    /**
     * Twenty times: a worker starts, stores (the count grows), then the test takes SQLite's write lock,
     * the worker reads a batch it cannot commit (Redis shows entries pending on it for 500 ms), and is
     * killed with {@code kill -9} there, mid-batch; then the lock is let go. A client posts all along. Then a last
     * worker drains everything: the table holds exactly the messages answered {@code 202}, each once and
     * as answered, nothing is pending and nothing dead-lettered.
     */
    @Test
    @Timeout(480) // twenty-one worker JVMs started one after another: a slow machine's starts add up
    void everyAcceptedMessageIsStoredOnceAcrossTwentyWorkersKilledMidBatchUnderLoad() throws Exception {
        Map<String, String> accepted = new ConcurrentHashMap<>();
        Path database = dir.resolve("data/messages.db");
        AtomicBoolean posting = new AtomicBoolean(true);
        List<Throwable> loadFailures = new CopyOnWriteArrayList<>();
        try (ThrowawayRedis redis = ThrowawayRedis.launch();
             RedisConnections stream = new RedisConnections(RedisConfig.parse(redis.uri()));
             ServerProcess server = ServerProcess.start(dir.resolve("server.log"), "messages", "--bind", "127.0.0.1:0",
                 "--data", dir.resolve("data").toString(), "--durability", "normal", "--stream", redis.uri(),
                 "--worker", "off")) {
            int port = server.awaitPort();
            Thread load = Thread.ofPlatform().start(() -> {
                try (RawHttpClient client = RawHttpClient.connect(port)) {
                    for (int n = 0; posting.get(); n++) {
                        accept(client, "load " + n, accepted);
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // a pace for the load, not a wait
                    }
                } catch (Throwable e) {
                    loadFailures.add(e);
                }
            });
            for (int kill = 0; kill < KILLS; kill++) {
                ServerProcess worker = worker("worker" + kill, redis);
                Matcher named = CONSUMER.matcher(worker.output());
                assertThat(named.find()).isTrue();
                String consumer = named.group(1);
                long before = storedCount(database);
                Await.until("worker " + kill + " storing", () -> storedCount(database) > before);
                try (Connection blocker = SqliteDatabase.open(database);
                     Statement s = blocker.createStatement()) {
                    s.execute("PRAGMA busy_timeout=10000");
                    s.execute("BEGIN IMMEDIATE");
                    Await.until("worker " + kill + " holding a batch", () -> holdsUncommitted(stream, consumer, s));
                    worker.sigkill();
                    assertThat(stuckOn(stream, consumer)).as("left pending by the dead worker").isPositive();
                    s.execute("ROLLBACK");
                }
                worker.close();
                assertThat(loadFailures).isEmpty();
            }
            posting.set(false);
            load.join();
            assertThat(loadFailures).isEmpty();
            try (ServerProcess last = worker("last", redis)) {
                Await.until("every accepted message stored", () -> storedCount(database) >= accepted.size());
                Await.until("nothing pending", () -> pending(stream) == 0);
                assertThat(stream.shared().sync().xlen("hotpath:messages:dead")).isZero();
            }
        }
        Map<String, String> stored = new HashMap<>();
        try (Connection db = SqliteDatabase.open(database);
             Statement s = db.createStatement();
             ResultSet rs = s.executeQuery("SELECT lower(hex(id)), from_user, to_user, body, created_at FROM messages")) {
            while (rs.next()) {
                String hex = rs.getString(1);
                String id = hex.substring(0, 8) + "-" + hex.substring(8, 12) + "-" + hex.substring(12, 16) + "-"
                    + hex.substring(16, 20) + "-" + hex.substring(20);
                assertThat(stored.put(id, "{\"id\":\"" + id + "\",\"from\":\"" + rs.getString(2) + "\",\"to\":\""
                    + rs.getString(3) + "\",\"message\":\"" + rs.getString(4) + "\",\"created_at\":\"" + rs.getString(5)
                    + "\"}")).as("stored once").isNull();
            }
        }
        assertThat(accepted.size()).as("accepted under load").isGreaterThan(KILLS);
        assertThat(stored).as("every 202 message stored once, as answered, and nothing else").isEqualTo(accepted);
    }

    private static long storedCount(Path database) {
        try (Connection db = SqliteDatabase.open(database);
             Statement s = db.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM messages")) {
            return rs.next() ? rs.getLong(1) : 0;
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Whether an entry has been delivered to {@code consumer} for {@link #STUCK} without being
     * acknowledged (0 or 1). While the test holds the write lock that means a batch the worker cannot
     * commit: a batch committed before the lock was taken is acknowledged right after its commit.
     */
    private static long stuckOn(RedisConnections stream, String consumer) {
        return oldestStuck(stream, consumer).size();
    }

    /** The oldest entry delivered to {@code consumer} for {@link #STUCK} and not acknowledged, if any. */
    private static List<PendingMessage> oldestStuck(RedisConnections stream, String consumer) {
        return stream.shared().sync().xpending("hotpath:messages", XPendingArgs.Builder.xpending(
            Consumer.from("hotpath-writers", consumer), Range.create("-", "+"), Limit.from(1)).idle(STUCK));
    }

    /**
     * Whether the oldest entry stuck on {@code consumer} is not in the database, as {@code locked} (the
     * connection holding the write lock) reads it: a batch that committed just before the lock may still
     * be pending, its {@code XACK} late, and would be acknowledged before the kill lands.
     */
    private static boolean holdsUncommitted(RedisConnections stream, String consumer, Statement locked) {
        List<PendingMessage> stuck = oldestStuck(stream, consumer);
        if (stuck.isEmpty()) {
            return false;
        }
        String entry = stuck.getFirst().getId();
        UUID id = UUID.fromString(stream.shared().sync().xrange("hotpath:messages", Range.create(entry, entry))
            .getFirst().getBody().get("id"));
        byte[] key = ByteBuffer.allocate(16).putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits())
            .array(); // the id column: the UUID's 16 bytes in order
        try (PreparedStatement select = locked.getConnection().prepareStatement("SELECT count(*) FROM messages WHERE id = ?")) {
            select.setBytes(1, key);
            try (ResultSet rs = select.executeQuery()) {
                rs.next();
                return rs.getLong(1) == 0;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long pending(RedisConnections stream) {
        return stream.shared().sync().xpending("hotpath:messages", "hotpath-writers").getCount();
    }
}
