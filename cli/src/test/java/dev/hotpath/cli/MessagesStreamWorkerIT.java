package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import dev.hotpath.store.RedisConfig;
import dev.hotpath.store.RedisConnections;
import dev.hotpath.store.testing.ThrowawayRedis;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
 * exactly once.
 */
@Timeout(180)
class MessagesStreamWorkerIT {
    private static final Pattern ID = Pattern.compile("^\\{\"id\":\"([0-9a-f-]{36})\"");
    private static final int MESSAGES = 600;

    @TempDir
    Path dir;

    private ServerProcess worker(String name, ThrowawayRedis redis) throws Exception {
        ServerProcess worker = ServerProcess.run(dir.resolve(name + ".log"), "messages", "worker", "--stream", redis.uri(),
            "--data", dir.resolve("data").toString(), "--durability", "normal", "--claim-idle", "300ms");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!worker.output().contains(": storing ")) {
            assertThat(worker.process.isAlive()).as(worker.output()).isTrue();
            assertThat(System.nanoTime() - deadline).as("the worker never started").isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        return worker;
    }

    private static RawResponse post(RawHttpClient client, String text) {
        byte[] body = ("{\"from\":\"w\",\"to\":\"r\",\"message\":\"" + text + "\"}").getBytes(StandardCharsets.UTF_8);
        String head = "POST /message-fast HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: "
            + body.length + "\r\n\r\n";
        byte[] request = new byte[head.length() + body.length];
        System.arraycopy(head.getBytes(StandardCharsets.US_ASCII), 0, request, 0, head.length());
        System.arraycopy(body, 0, request, head.length(), body.length);
        return client.send(request).read();
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
            try (Connection blocker = DriverManager.getConnection("jdbc:sqlite:" + database);
                 Statement s = blocker.createStatement()) {
                s.execute("PRAGMA busy_timeout=10000");
                s.execute("BEGIN IMMEDIATE");
                for (int i = MESSAGES / 2; i < MESSAGES; i++) {
                    accept(client, "left pending " + i, accepted);
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (pending(stream) == 0) {
                    assertThat(System.nanoTime() - deadline).as("the first worker never read them").isNegative();
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                }
                first.sigkill();
                assertThat(pending(stream)).as("pending on the dead worker").isPositive();
                s.execute("ROLLBACK");
            }
            try (ServerProcess second = worker("worker2", redis)) {
                for (Map.Entry<String, String> message : accepted.entrySet()) {
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                    RawResponse read;
                    while ((read = client.send("GET /messages/" + message.getKey() + " HTTP/1.1\r\nHost: a\r\n\r\n").read())
                        .status() == 404) {
                        assertThat(System.nanoTime() - deadline).as("message %s never stored:%n%s", message.getKey(),
                            second.output()).isNegative();
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
                    }
                    assertThat(read.status()).isEqualTo(200);
                    assertThat(read.bodyText()).isEqualTo(message.getValue());
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (pending(stream) != 0) {
                    assertThat(System.nanoTime() - deadline).as("entries left pending").isNegative();
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
                }
                assertThat(stream.shared().sync().xlen("hotpath:messages:dead")).isZero();
            }
        }
        try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + database);
             Statement s = db.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*), count(DISTINCT id) FROM messages")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isEqualTo(MESSAGES);
            assertThat(rs.getLong(2)).isEqualTo(MESSAGES);
        }
    }

    private static void accept(RawHttpClient client, String text, Map<String, String> accepted) {
        RawResponse response = post(client, text);
        assertThat(response.status()).as(response.bodyText()).isEqualTo(202);
        Matcher m = ID.matcher(response.bodyText());
        assertThat(m.find()).isTrue();
        accepted.put(m.group(1), response.bodyText());
    }

    private static long pending(RedisConnections stream) {
        return stream.shared().sync().xpending("hotpath:messages", "hotpath-writers").getCount();
    }
}
