package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import dev.hotpath.store.testing.ThrowawayPostgres;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Durability of {@code hotpath serve messages} as a process, on the direct path: every message
 * answered {@code 201} survives {@code kill -9} under load and is read back, byte for byte, and on its
 * sender's pages, after a restart on the same data dir or PostgreSQL database; a second owner of a data dir is refused;
 * SIGTERM drains and keeps what it answered.
 */
class MessagesDurabilityIT {
    private static final Pattern ID = Pattern.compile("^\\{\"id\":\"([0-9a-f-]{36})\"");
    private static final Pattern FROM = Pattern.compile("\"from\":\"([^\"]+)\"");
    private static final Pattern LISTED_ID = Pattern.compile("\\{\"id\":\"([0-9a-f-]{36})\"");
    private static final Pattern NEXT = Pattern.compile("\"next\":\"([0-9a-f-]{36})\"");
    private static final int CONNECTIONS = 16;
    private static final int ACKNOWLEDGED_BEFORE_KILL = 400;
    private static final int CYCLES = 3;

    @TempDir
    Path dir;
    private final List<Throwable> failures = new CopyOnWriteArrayList<>();

    /** Where the server keeps messages: {@code --data DIR} or {@code --store URI}. */
    enum Store {
        SQLITE, POSTGRES
    }

    private ServerProcess start(String name, String... extra) throws Exception {
        return start(name, List.of("--data", dir.resolve("data").toString()), extra);
    }

    private ServerProcess start(String name, List<String> store, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("messages", "--bind", "127.0.0.1:0"));
        args.addAll(store);
        args.addAll(List.of(extra));
        return ServerProcess.start(dir.resolve(name + ".log"), args.toArray(String[]::new));
    }

    @ParameterizedTest
    @EnumSource(Store.class)
    void everyAcknowledgedMessageSurvivesKillNine(Store kind) throws Exception {
        List<String> store = kind == Store.SQLITE ? List.of("--data", dir.resolve("data").toString())
            : List.of("--store", ThrowawayPostgres.shared().createDatabase("durability"));
        Map<String, String> acknowledged = new ConcurrentHashMap<>();
        for (int cycle = 0; cycle < CYCLES; cycle++) {
            try (ServerProcess server = start("cycle" + cycle, store)) {
                int port = server.awaitPort();
                verify(port, acknowledged);
                AtomicInteger acks = new AtomicInteger();
                CountDownLatch enough = new CountDownLatch(1);
                List<Thread> clients = new ArrayList<>();
                for (int c = 0; c < CONNECTIONS; c++) {
                    String sender = "c" + cycle + "t" + c;
                    clients.add(Thread.ofPlatform().start(() -> sendUntilKilled(port, sender, acknowledged, acks, enough)));
                }
                assertThat(enough.await(60, TimeUnit.SECONDS)).as("%d messages acknowledged", ACKNOWLEDGED_BEFORE_KILL)
                    .isTrue();

                server.sigkill();

                for (Thread client : clients) {
                    client.join(TimeUnit.SECONDS.toMillis(30));
                }
                assertThat(failures).as("unexpected answers before the kill").isEmpty();
            }
        }
        try (ServerProcess server = start("final", store)) {
            int port = server.awaitPort();
            assertThat(acknowledged).hasSizeGreaterThanOrEqualTo(CYCLES * ACKNOWLEDGED_BEFORE_KILL);
            verify(port, acknowledged);
        }
    }

    /** Sends messages on one connection until the server dies; records each acknowledged one by its id. */
    private void sendUntilKilled(int port, String sender, Map<String, String> acknowledged, AtomicInteger acks,
                                 CountDownLatch enough) {
        try (RawHttpClient client = RawHttpClient.connect(port)) {
            for (int n = 0; ; n++) {
                RawResponse response = send(client, sender, "message " + n + " from " + sender);
                if (response.status() != 201) {
                    throw new AssertionError("create answered " + response.status() + ": " + response.bodyText());
                }
                Matcher m = ID.matcher(response.bodyText());
                if (!m.find()) {
                    throw new AssertionError("no id in " + response.bodyText());
                }
                acknowledged.put(m.group(1), response.bodyText());
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

    private static RawResponse send(RawHttpClient client, String from, String text) {
        String body = "{\"from\":\"" + from + "\",\"to\":\"bob\",\"message\":\"" + text + "\"}";
        return client.send("POST /message HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: "
            + body.length() + "\r\n\r\n" + body).read();
    }

    /**
     * Every acknowledged message reads back exactly as its 201 showed it, and is on its sender's pages
     * (which may also hold messages stored but never answered, as a kill leaves them).
     */
    private static void verify(int port, Map<String, String> acknowledged) {
        Map<String, Set<String>> bySender = new HashMap<>();
        try (RawHttpClient client = RawHttpClient.connect(port)) {
            for (Map.Entry<String, String> message : acknowledged.entrySet()) {
                RawResponse response = client.send("GET /messages/" + message.getKey() + " HTTP/1.1\r\nHost: a\r\n\r\n").read();
                assertThat(response.status()).as(message.getKey()).isEqualTo(200);
                assertThat(response.bodyText()).as(message.getKey()).isEqualTo(message.getValue());
                Matcher from = FROM.matcher(message.getValue());
                assertThat(from.find()).isTrue();
                bySender.computeIfAbsent(from.group(1), sender -> new HashSet<>()).add(message.getKey());
            }
            for (Map.Entry<String, Set<String>> sender : bySender.entrySet()) {
                assertThat(listed(client, sender.getKey())).as("the pages of %s", sender.getKey())
                    .containsAll(sender.getValue());
            }
        }
    }

    /** The ids on every page of {@code sender}'s messages, following {@code next}. */
    private static List<String> listed(RawHttpClient client, String sender) {
        List<String> ids = new ArrayList<>();
        String before = "";
        do {
            RawResponse page = client.send("GET /messages?from=" + sender + "&limit=100" + before
                + " HTTP/1.1\r\nHost: a\r\n\r\n").read();
            assertThat(page.status()).as(page.bodyText()).isEqualTo(200);
            Matcher id = LISTED_ID.matcher(page.bodyText());
            while (id.find()) {
                ids.add(id.group(1));
            }
            Matcher next = NEXT.matcher(page.bodyText());
            before = next.find() ? "&before=" + next.group(1) : null;
        } while (before != null);
        return ids;
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
        String created;
        String id;
        try (ServerProcess server = start("first", "--durability", "normal", "--max-batch", "1")) {
            int port = server.awaitPort();
            try (RawHttpClient client = RawHttpClient.connect(port)) {
                RawResponse response = send(client, "alice", "drained");
                assertThat(response.status()).isEqualTo(201);
                created = response.bodyText();
            }
            Matcher m = ID.matcher(created);
            assertThat(m.find()).isTrue();
            id = m.group(1);
            server.process.destroy();
            assertThat(server.awaitExit()).isZero();
            assertThat(server.output()).contains("hotpath: stopped");
        }
        try (ServerProcess server = start("second")) {
            verify(server.awaitPort(), Map.of(id, created));
        }
    }
}
