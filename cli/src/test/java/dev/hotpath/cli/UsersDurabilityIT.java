package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.apps.users.UsersConfig;
import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hotpath serve users --store sqlite} as a process (scenario S4's server): every user whose
 * {@code 201} arrived before {@code kill -9} is there, byte for byte, after a restart on the same data
 * directory, and ids go on after the highest one stored.
 */
class UsersDurabilityIT {
    private static final Pattern CREATED = Pattern.compile("^\\{\"id\":(\\d+),");
    private static final String AUTH = "Authorization: Bearer " + UsersConfig.DEFAULT_TOKEN + "\r\n";
    private static final int CLIENTS = 4;
    private static final int ACKNOWLEDGED_BEFORE_KILL = 200;

    @TempDir
    Path dir;
    private final List<Throwable> failures = new CopyOnWriteArrayList<>();

    private ServerProcess start(String name) throws Exception {
        return ServerProcess.start(dir.resolve(name + ".log"), "users", "--bind", "127.0.0.1:0", "--store", "sqlite",
            "--data", dir.resolve("data").toString());
    }

    @Test
    void everyAcknowledgedCreateSurvivesKillNine() throws Exception {
        Map<Long, String> created = new ConcurrentHashMap<>();
        try (ServerProcess server = start("first")) {
            int port = server.awaitPort();
            AtomicInteger acks = new AtomicInteger();
            CountDownLatch enough = new CountDownLatch(1);
            List<Thread> clients = new ArrayList<>();
            for (int c = 1; c <= CLIENTS; c++) {
                int client = c;
                clients.add(Thread.ofPlatform().start(() -> createUntilKilled(port, client, created, acks, enough)));
            }
            assertThat(enough.await(60, TimeUnit.SECONDS)).as("%d creates acknowledged", ACKNOWLEDGED_BEFORE_KILL).isTrue();
            server.sigkill();
            for (Thread client : clients) {
                client.join(TimeUnit.SECONDS.toMillis(30));
            }
            assertThat(failures).as("unexpected answers before the kill").isEmpty();
        }
        long highest = created.keySet().stream().mapToLong(Long::longValue).max().orElseThrow();
        try (ServerProcess server = start("restart"); RawHttpClient client = RawHttpClient.connect(server.awaitPort())) {
            for (Map.Entry<Long, String> user : created.entrySet()) {
                RawResponse response = client.send("GET /api/users/" + user.getKey() + " HTTP/1.1\r\nHost: a\r\n" + AUTH + "\r\n").read();
                assertThat(response.status()).as("user %d", user.getKey()).isEqualTo(200);
                assertThat(response.bodyText()).isEqualTo(user.getValue());
            }
            String body = "{\"name\":\"after\",\"email\":\"after@example.com\"}";
            RawResponse next = client.send("POST /api/users HTTP/1.1\r\nHost: a\r\n" + AUTH + "Content-Length: " + body.length()
                + "\r\n\r\n" + body).read();
            Matcher id = CREATED.matcher(next.bodyText());
            assertThat(id.find()).as(next.bodyText()).isTrue();
            assertThat(Long.parseLong(id.group(1))).isGreaterThan(highest);
        }
        assertThat(created).hasSizeGreaterThanOrEqualTo(ACKNOWLEDGED_BEFORE_KILL);
    }

    /** Creates users on one connection until the server dies; records each acknowledged answer by id. */
    private void createUntilKilled(int port, int client, Map<Long, String> created, AtomicInteger acks, CountDownLatch enough) {
        try (RawHttpClient http = RawHttpClient.connect(port)) {
            for (int n = 0; ; n++) {
                // every other name past ASCII, spelled raw and as escapes: the bytes bound and the answer written from them
                String plain = "c" + client + "-" + n;
                boolean odd = n % 2 == 1;
                String sent = odd ? plain + " Zoë \\\"q\\\" \\u00e9 🚀 \\ud83d\\ude00 \\n" : plain;
                String email = plain + "@example.com";
                byte[] body = ("{\"name\":\"" + sent + "\",\"email\":\"" + email + "\"}").getBytes(StandardCharsets.UTF_8);
                http.send("POST /api/users HTTP/1.1\r\nHost: a\r\n" + AUTH + "Content-Type: application/json\r\n"
                    + "Content-Length: " + body.length + "\r\n\r\n");
                RawResponse response = http.send(body).read();
                Matcher id = CREATED.matcher(response.bodyText());
                // the name as the contract's generator spells it: é raw, a character past the BMP as two escaped surrogates
                String answered = odd ? plain + " Zoë \\\"q\\\" é \\uD83D\\uDE80 \\uD83D\\uDE00 \\n" : plain;
                if (response.status() != 201 || !id.find() || !response.bodyText().matches(
                    "\\{\"id\":\\d+,\"name\":\"" + Pattern.quote(answered) + "\",\"email\":\"" + Pattern.quote(email)
                        + "\",\"created_at\":\"\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\"}")) {
                    throw new AssertionError("create answered " + response.status() + ": " + response.bodyText());
                }
                created.put(Long.parseLong(id.group(1)), response.bodyText());
                if (acks.incrementAndGet() >= ACKNOWLEDGED_BEFORE_KILL) {
                    enough.countDown();
                }
            }
        } catch (java.io.UncheckedIOException e) {
            // the server was killed under this client: what it acknowledged is recorded
        } catch (AssertionError e) {
            if (!String.valueOf(e.getMessage()).startsWith("connection closed")) {
                failures.add(e);
            }
        }
    }
}
