package dev.hotpath.apps.shortener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.testing.MutableClock;
import dev.hotpath.http.testing.RawResponse;
import dev.hotpath.store.RedisConfig;
import dev.hotpath.store.RedisConnections;
import dev.hotpath.store.testing.Await;
import dev.hotpath.store.testing.ThrowawayPostgres;
import dev.hotpath.store.testing.ThrowawayRedis;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The faults of the scale-out mode, on a PostgreSQL and a Redis of this class's own that the tests
 * kill, stop and start: Redis killed or hung (redirects and creates keep answering, the breaker skips
 * it, invalidation works again once it is back), PostgreSQL killed (creates and uncached codes 503,
 * cached links still redirect) and back (the node recovers by itself).
 */
class ScaleOutFaultsIT {
    private static final Duration CACHE_TIMEOUT = Duration.ofMillis(100);
    private static final String BREAKER = "hotpath_shortener_redis_breaker_open";
    private static ThrowawayPostgres postgres;
    private static ThrowawayRedis redis;
    private static int databases;

    @TempDir
    Path dir;
    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-30T04:00:00Z"));
    private final List<RunningApp> nodes = new ArrayList<>();
    private String database;
    private String key;

    @BeforeAll
    static void launch() {
        postgres = ThrowawayPostgres.launch();
        redis = ThrowawayRedis.launch();
    }

    @AfterAll
    static void shutDown() {
        redis.close();
        postgres.close();
    }

    @BeforeEach
    void freshStore() {
        database = "faults_" + ++databases;
        postgres.createDatabase(database);
        redis.flushAll();
    }

    @AfterEach
    void stopNodes() {
        nodes.forEach(RunningApp::close);
    }

    private RunningApp node(Role role) throws Exception {
        RunningApp node = RunningApp.start(PostgresShortenerIT.config(dir, postgres.uri(database), redis.uri(), role,
            "scrambled", Set.of(), null, clock, CACHE_TIMEOUT), clock);
        nodes.add(node);
        if (key == null) {
            key = Files.readString(dir.resolve("api-key")).strip();
        }
        return node;
    }

    private String create(RunningApp node, String url) {
        return node.create("{\"url\":\"" + url + "\"}", key);
    }

    @Test
    void redisKilledKeepsRedirectsAndCreatesAnsweringAndInvalidationResumesWhenItIsBack() throws Exception {
        RunningApp writer = node(Role.ALL);
        RunningApp reader = node(Role.READ);
        String before = create(writer, "https://a.example/before");
        redis.kill();
        assertThat(reader.call("GET", "/" + before).header("Location")).isEqualTo("https://a.example/before");
        String during = create(writer, "https://a.example/during");
        assertThat(reader.call("GET", "/" + during).header("Location")).isEqualTo("https://a.example/during");
        assertThat(reader.metric(BREAKER)).isEqualTo(1);

        redis.restart();
        Await.until("both breakers to close", () -> reader.metric(BREAKER) == 0 && writer.metric(BREAKER) == 0);
        awaitSubscribers(2);
        assertThat(writer.call("DELETE", "/api/links/" + before, null, key).status()).isEqualTo(204);
        Await.until("the invalidation",
            () -> reader.metric("hotpath_shortener_invalidations_received_total") >= 1);
        assertThat(reader.call("GET", "/" + before).status()).isEqualTo(410);
    }

    /** Lettuce subscribes again after a reconnect; a delete announced before that would reach no one. */
    private void awaitSubscribers(long count) {
        try (RedisConnections connections = new RedisConnections(RedisConfig.parse(redis.uri()))) {
            Await.until(count + " subscribers", () -> connections.shared().sync()
                .pubsubNumsub("hotpath:links:invalidate").values().stream().mapToLong(Long::longValue).sum() >= count);
        }
    }

    @Test
    void aHungRedisCostsATimeoutThenIsSkippedUntilItAnswers() throws Exception {
        RunningApp writer = node(Role.ALL);
        RunningApp reader = node(Role.READ);
        String first = create(writer, "https://a.example/first");
        String second = create(writer, "https://a.example/second");
        redis.pause();
        try {
            assertThat(reader.call("GET", "/" + first).header("Location")).isEqualTo("https://a.example/first");
            assertThat(reader.metric(BREAKER)).isEqualTo(1);
            assertThat(reader.call("GET", "/" + second).header("Location")).isEqualTo("https://a.example/second");
            assertThat(create(writer, "https://a.example/third")).isNotBlank();
        } finally {
            redis.resume();
        }
        Await.until("the breaker to close", () -> reader.metric(BREAKER) == 0);
    }

    @Test
    void postgresKilledFailsCreatesAndUncachedCodesWith503AndTheNodeRecoversAlone() throws Exception {
        RunningApp writer = node(Role.ALL);
        RunningApp other = node(Role.WRITE);
        String cached = create(writer, "https://a.example/cached");
        String uncached = create(other, "https://a.example/uncached"); // never looked up by the writer
        postgres.kill();
        try {
            assertThat(writer.call("GET", "/" + cached).header("Location")).isEqualTo("https://a.example/cached");
            assertUnavailable(writer.call("GET", "/" + uncached));
            assertUnavailable(writer.call("POST", "/api/links", "{\"url\":\"https://a.example/no\"}", key));
            Await.until("/ready to answer 503", () -> writer.call("GET", "/ready").status() == 503);
        } finally {
            postgres.start();
        }
        Await.until("a create to commit again", () -> writer.call("POST", "/api/links",
            "{\"url\":\"https://a.example/back\"}", key).status() == 201);
        Await.until("the uncached code to resolve again (the read pool reconnects in the background)",
            () -> writer.call("GET", "/" + uncached).status() == 302);
        assertThat(writer.call("GET", "/" + uncached).header("Location")).isEqualTo("https://a.example/uncached");
        Await.until("/ready to answer 200", () -> writer.call("GET", "/ready").status() == 200);
    }

    private static void assertUnavailable(RawResponse response) {
        assertThat(response.status()).as(response.bodyText()).isEqualTo(503);
        assertThat(response.header("Retry-After")).isEqualTo("1");
        assertThat(response.bodyText()).contains("\"error\":\"store_unavailable\"");
    }
}
