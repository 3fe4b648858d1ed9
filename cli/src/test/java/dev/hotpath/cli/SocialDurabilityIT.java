package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.apps.social.SocialSeed;
import dev.hotpath.apps.social.Tokens;
import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import dev.hotpath.store.SqliteDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
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
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code hotpath serve social} as a process: posts and likes acknowledged before {@code kill -9} are all
 * there after a restart on the same database (the default {@code synchronous=NORMAL} survives a killed
 * process; power loss needs {@code --durability full}). With one event loop, reads and writes share one
 * connection committed at the end of each loop turn; with two, a writer thread commits.
 */
@ParameterizedClass
@ValueSource(ints = {1, 2})
class SocialDurabilityIT {
    @Parameter
    int eventLoops;

    private static final Pattern POST_ID = Pattern.compile("\\{\"post\":\\{\"id\":(\\d+),");
    private static final String SECRET = "twelve-dollar-challenge";
    private static final int CLIENTS = 8;
    private static final int ACKNOWLEDGED_BEFORE_KILL = 300;

    @TempDir
    Path dir;
    private final List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();

    private ServerProcess start(Path db, String name) throws Exception {
        return ServerProcess.start(dir.resolve(name + ".log"), "social", "--bind", "127.0.0.1:0", "--sqlite-path",
            db.toString(), "--jwt-secret", SECRET, "--event-loops", Integer.toString(eventLoops));
    }

    @Test
    void everyAcknowledgedPostAndLikeSurvivesKillNine() throws Exception {
        Path db = dir.resolve("social.db");
        SocialSeed.generate(db, new SocialSeed.Size(100, 200), 9);
        Map<Long, String> posts = new ConcurrentHashMap<>();
        Map<String, Boolean> likes = new ConcurrentHashMap<>();
        long now = Instant.now().getEpochSecond();
        try (ServerProcess server = start(db, "first")) {
            int port = server.awaitPort();
            AtomicInteger acks = new AtomicInteger();
            CountDownLatch enough = new CountDownLatch(1);
            List<Thread> clients = new ArrayList<>();
            for (int c = 1; c <= CLIENTS; c++) {
                String token = new Tokens(SECRET.getBytes(StandardCharsets.UTF_8)).mint(c, "client_" + c, now, now + 3600);
                int client = c;
                clients.add(Thread.ofPlatform().start(() -> writeUntilKilled(port, token, client, posts, likes, acks, enough)));
            }
            assertThat(enough.await(60, TimeUnit.SECONDS)).as("%d writes acknowledged", ACKNOWLEDGED_BEFORE_KILL).isTrue();
            server.sigkill();
            for (Thread client : clients) {
                client.join(TimeUnit.SECONDS.toMillis(30));
            }
            assertThat(failures).as("unexpected answers before the kill").isEmpty();
        }
        try (ServerProcess server = start(db, "restart")) {
            int port = server.awaitPort();
            try (RawHttpClient client = RawHttpClient.connect(port)) {
                for (Map.Entry<Long, String> post : posts.entrySet()) {
                    RawResponse response = client.send("GET /posts/" + post.getKey() + " HTTP/1.1\r\nHost: a\r\n\r\n").read();
                    assertThat(response.status()).as("post %d", post.getKey()).isEqualTo(200);
                    assertThat(response.bodyText()).contains("\"body\":\"" + post.getValue() + "\"");
                }
            }
        }
        try (Connection c = SqliteDatabase.open(db); Statement s = c.createStatement()) {
            for (String like : likes.keySet()) {
                String[] userAndPost = like.split(":");
                try (ResultSet rs = s.executeQuery("SELECT count(*) FROM likes WHERE user_id = " + userAndPost[0]
                    + " AND post_id = " + userAndPost[1])) {
                    rs.next();
                    assertThat(rs.getInt(1)).as("like %s", like).isEqualTo(1);
                }
            }
        }
        assertThat(posts.size() + likes.size()).isGreaterThanOrEqualTo(ACKNOWLEDGED_BEFORE_KILL);
    }

    /** Posts, then likes that post, on one connection, until the server dies; records what was acknowledged. */
    private void writeUntilKilled(int port, String token, int user, Map<Long, String> posts, Map<String, Boolean> likes,
                                  AtomicInteger acks, CountDownLatch enough) {
        try (RawHttpClient client = RawHttpClient.connect(port)) {
            for (int n = 0; ; n++) {
                String text = "post " + n + " of client " + user;
                String body = "{\"body\":\"" + text + "\"}";
                RawResponse created = client.send("POST /posts HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer " + token
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body).read();
                Matcher m = POST_ID.matcher(created.bodyText());
                if (created.status() != 201 || !m.find()) {
                    throw new AssertionError("create answered " + created.status() + ": " + created.bodyText());
                }
                long id = Long.parseLong(m.group(1));
                posts.put(id, text);
                RawResponse liked = client.send("POST /posts/" + id + "/like HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer "
                    + token + "\r\nContent-Length: 0\r\n\r\n").read();
                if (liked.status() != 201) {
                    throw new AssertionError("like answered " + liked.status() + ": " + liked.bodyText());
                }
                likes.put(user + ":" + id, true);
                if (acks.addAndGet(2) >= ACKNOWLEDGED_BEFORE_KILL) {
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
}
