package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import dev.hotpath.store.SqliteDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Durability of {@code hotpath serve shortener} as a process: every acknowledged create survives
 * {@code kill -9}; a second owner and a corrupt store are refused at start; SIGTERM drains.
 */
class ShortenerDurabilityIT {
    private static final Pattern CODE = Pattern.compile("\"code\":\"([^\"]+)\"");
    private static final int CONNECTIONS = 16;
    private static final int ACKNOWLEDGED_BEFORE_KILL = 400;
    private static final int CYCLES = 3;

    @TempDir
    Path dir;
    private final List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();

    private ServerProcess start(String name) throws Exception {
        return ServerProcess.start(dir.resolve(name + ".log"), "shortener", "--bind", "127.0.0.1:0",
            "--data", dir.resolve("data").toString());
    }

    private String key() throws Exception {
        return Files.readString(dir.resolve("data/api-key")).strip();
    }

    @Test
    void everyAcknowledgedCreateSurvivesKillNine() throws Exception {
        Map<String, String> acknowledged = new ConcurrentHashMap<>();
        for (int cycle = 0; cycle < CYCLES; cycle++) {
            try (ServerProcess server = start("cycle" + cycle)) {
                int port = server.awaitPort();
                String key = key();
                verify(port, acknowledged);
                AtomicInteger acks = new AtomicInteger();
                CountDownLatch enough = new CountDownLatch(1);
                List<Thread> clients = new ArrayList<>();
                for (int c = 0; c < CONNECTIONS; c++) {
                    String prefix = "https://example.com/c" + cycle + "/t" + c + "/";
                    clients.add(Thread.ofPlatform().start(() -> createUntilKilled(port, key, prefix, acknowledged, acks, enough)));
                }
                assertThat(enough.await(60, TimeUnit.SECONDS)).as("%d creates acknowledged", ACKNOWLEDGED_BEFORE_KILL).isTrue();

                server.sigkill();

                for (Thread client : clients) {
                    client.join(TimeUnit.SECONDS.toMillis(30));
                }
                assertThat(failures).as("unexpected answers before the kill").isEmpty();
            }
        }
        try (ServerProcess server = start("final")) {
            int port = server.awaitPort();
            assertThat(acknowledged).hasSizeGreaterThanOrEqualTo(CYCLES * ACKNOWLEDGED_BEFORE_KILL);
            verify(port, acknowledged);
        }
    }

    /** Creates links on one connection until the server dies; records each acknowledged one. */
    private void createUntilKilled(int port, String key, String prefix, Map<String, String> acknowledged,
                                   AtomicInteger acks, CountDownLatch enough) {
        try (RawHttpClient client = RawHttpClient.connect(port)) {
            for (int n = 0; ; n++) {
                String url = prefix + n;
                String body = "{\"url\":\"" + url + "\"}";
                RawResponse response = client.send("POST /api/links HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer " + key
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body).read();
                if (response.status() != 201) {
                    throw new AssertionError("create answered " + response.status() + ": " + response.bodyText());
                }
                Matcher m = CODE.matcher(response.bodyText());
                if (!m.find()) {
                    throw new AssertionError("no code in " + response.bodyText());
                }
                acknowledged.put(m.group(1), url);
                if (acks.incrementAndGet() >= ACKNOWLEDGED_BEFORE_KILL) {
                    enough.countDown();
                }
            }
        } catch (java.io.UncheckedIOException e) {
            // The server was killed under this connection: that is the point.
        } catch (AssertionError e) {
            if (!String.valueOf(e.getMessage()).startsWith("connection closed")) {
                failures.add(e);
            }
        }
    }

    private static void verify(int port, Map<String, String> acknowledged) {
        try (RawHttpClient client = RawHttpClient.connect(port)) {
            for (Map.Entry<String, String> link : acknowledged.entrySet()) {
                RawResponse response = client.send("GET /" + link.getKey() + " HTTP/1.1\r\nHost: a\r\n\r\n").read();
                assertThat(response.status()).as(link.getKey()).isEqualTo(302);
                assertThat(response.header("Location")).as(link.getKey()).isEqualTo(link.getValue());
            }
        }
    }

    @Test
    void refusesASecondProcessOnTheSameDataDir() throws Exception {
        try (ServerProcess first = start("first")) {
            first.awaitPort();
            try (ServerProcess second = start("second")) {
                assertThat(second.awaitExit()).isEqualTo(1);
                assertThat(second.output()).contains("is in use by another hotpath process").doesNotContain("\tat ");
            }
        }
    }

    @Test
    void drainsOnSigtermAndKeepsWhatItAcknowledged() throws Exception {
        String code;
        try (ServerProcess server = start("first")) {
            int port = server.awaitPort();
            code = createOne(port, key(), "https://example.com/drained");
            server.process.destroy();
            assertThat(server.awaitExit()).isZero();
        }
        try (ServerProcess server = start("second")) {
            verify(server.awaitPort(), Map.of(code, "https://example.com/drained"));
        }
    }

    @Test
    void refusesToStartOnAStoreWithAGapInItsIds() throws Exception {
        prepareStore("UPDATE links SET id = 7 WHERE id = 1");
        try (ServerProcess server = start("corrupt")) {
            assertThat(server.awaitExit()).isEqualTo(1);
            assertThat(server.output()).contains("corrupt store: link ids are not contiguous").doesNotContain("\tat ");
        }
    }

    @Test
    void refusesToStartOnAStoreWithAnInvalidUrl() throws Exception {
        prepareStore("UPDATE links SET long_url = 'javascript:alert(1)' WHERE id = 0");
        try (ServerProcess server = start("corrupt")) {
            assertThat(server.awaitExit()).isEqualTo(1);
            assertThat(server.output()).contains("corrupt store: link 0 has an invalid url");
        }
    }

    @Test
    void refusesToStartOnAStoreWithAnExpiryItCannotWrite() throws Exception {
        prepareStore("UPDATE links SET expires_at = 253402300800000 WHERE id = 1"); // 10000-01-01T00:00:00Z
        try (ServerProcess server = start("corrupt")) {
            assertThat(server.awaitExit()).isEqualTo(1);
            assertThat(server.output()).contains("corrupt store: link 1 has a creation or expiry time outside 1970 to 9999")
                .doesNotContain("\tat ");
        }
    }

    /** A stopped store with two links, then {@code sql} run on it behind the server's back. */
    private void prepareStore(String sql) throws Exception {
        try (ServerProcess server = start("prepare")) {
            int port = server.awaitPort();
            createOne(port, key(), "https://example.com/0");
            createOne(port, key(), "https://example.com/1");
            server.process.destroy();
            assertThat(server.awaitExit()).isZero();
        }
        try (Connection db = SqliteDatabase.open(dir.resolve("data/links.db"));
             Statement s = db.createStatement()) {
            assertThat(s.executeUpdate(sql)).isEqualTo(1);
        }
    }

    private static String createOne(int port, String key, String url) {
        try (RawHttpClient client = RawHttpClient.connect(port)) {
            String body = "{\"url\":\"" + url + "\"}";
            RawResponse response = client.send(("POST /api/links HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer " + key
                + "\r\nContent-Length: " + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII)).read();
            assertThat(response.status()).isEqualTo(201);
            Matcher m = CODE.matcher(response.bodyText());
            assertThat(m.find()).isTrue();
            return m.group(1);
        }
    }
}
