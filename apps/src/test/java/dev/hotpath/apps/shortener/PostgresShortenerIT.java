package dev.hotpath.apps.shortener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hotpath.apps.App;
import dev.hotpath.apps.shortener.internal.ScrambledCodes;
import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import dev.hotpath.store.Durability;
import dev.hotpath.store.PostgresConfig;
import dev.hotpath.store.PostgresDatabase;
import dev.hotpath.store.RedisConfig;
import dev.hotpath.store.testing.Await;
import dev.hotpath.store.testing.ThrowawayPostgres;
import dev.hotpath.store.testing.ThrowawayRedis;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shortener contract on the scale-out mode (PostgreSQL and Redis, a fresh database per test), and
 * what only that mode has: roles, several nodes on one database, ids that survive a Redis flush.
 */
class PostgresShortenerIT extends ShortenerContract {
    private static final AtomicInteger DATABASES = new AtomicInteger();
    /** Long enough that a loaded CI machine does not open the breaker; the faults test uses its own. */
    static final Duration CACHE_TIMEOUT = Duration.ofMillis(500);
    /**
     * For a test that counts where each answer came from: no slow Redis reply may fall to PostgreSQL.
     * Cost: a look-up the node never sent fails that test only after 10 s, not 0.5.
     */
    private static final Duration PATIENT_CACHE_TIMEOUT = Duration.ofSeconds(10);

    @TempDir
    Path dir;
    private String database;
    /** Nodes a test starts beside the one of {@link ShortenerContract}; closed after it. */
    private final List<RunningApp> others = new ArrayList<>();

    @BeforeEach
    void freshStore() {
        database = "shortener_" + DATABASES.incrementAndGet();
        ThrowawayPostgres.shared().createDatabase(database);
        ThrowawayRedis.shared().flushAll();
    }

    @AfterEach
    void stopOthers() {
        others.forEach(RunningApp::close);
    }

    static ClusterConfig config(Path dir, String postgresUri, String redisUri, Role role, String codes,
                                Set<String> denied, String metricsToken, java.time.Clock clock,
                                Duration cacheTimeout) {
        ShortenerConfig common = new ShortenerConfig(dir, "https://sho.rt/x/", codes, Durability.FULL,
            ShortenerConfig.MAX_LINKS, 256, 302, denied, metricsToken, true, clock);
        return new ClusterConfig(common, PostgresConfig.parse(postgresUri, name -> null).withPoolSize(2)
            .withConnectTimeout(Duration.ofSeconds(1)),
            redisUri == null ? null : RedisConfig.parse(redisUri).withCommandTimeout(cacheTimeout), role, 1000,
            Duration.ofSeconds(60), dir.resolve("api-key"));
    }

    private ClusterConfig config(Role role, String codes, Set<String> denied, String metricsToken) {
        return config(dir, ThrowawayPostgres.shared().uri(database), ThrowawayRedis.shared().uri(), role, codes, denied,
            metricsToken, clock, CACHE_TIMEOUT);
    }

    @Override
    Opened open(String codes, Set<String> denied, String metricsToken, PrometheusRegistry registry) {
        ClusterShortenerApp opened = ClusterShortenerApp.open(config(Role.ALL, codes, denied, metricsToken), registry);
        return new Opened(opened, opened.createdKeyFile());
    }

    @Override
    long capacity() {
        return 1L << 47;
    }

    private RunningApp startNode(Role role) {
        RunningApp node = RunningApp.start(config(role, "scrambled", Set.of(), null), clock);
        others.add(node);
        return node;
    }

    /** docs/openapi.yaml is checked against the embedded router (OpenApiDocumentTest); this ties a node to it. */
    @Test
    void aNodeServesExactlyTheRoutesOfTheEmbeddedShortener(@TempDir Path embeddedDir) throws Exception {
        start();
        try (ShortenerApp embedded = ShortenerApp.open(new ShortenerConfig(embeddedDir, "https://sho.rt", "scrambled",
            Durability.NONE, 10, 256, 302, Set.of(), null, true, clock), new PrometheusRegistry())) {
            assertThat(routes(app)).isEqualTo(routes(embedded));
        }
    }

    private static Set<String> routes(App app) {
        Set<String> routes = new TreeSet<>();
        app.routes().list().forEach(route -> routes.add(route.method() + " " + route.pattern()));
        return routes;
    }

    @Test
    void aReadNodeRedirectsButRefusesTheApiNamingItsRole() throws Exception {
        start();
        String code = create("{\"url\":\"https://a.example/read\"}");
        RunningApp reader = startNode(Role.READ);
        assertThat(reader.call("GET", "/" + code).header("Location")).isEqualTo("https://a.example/read");
        assertThat(reader.call("GET", "/ready").status()).isEqualTo(200);
        for (String[] route : new String[][] {{"POST", "/api/links"}, {"GET", "/api/links"}, {"GET", "/api/stats"},
            {"DELETE", "/api/links/" + code}, {"GET", "/api/links/" + code}, {"POST", "/api/links/bulk"}}) {
            RawResponse refused = reader.call(route[0], route[1]);
            assertThat(refused.status()).as(route[1]).isEqualTo(403);
            assertThat(refused.bodyText()).as(route[1]).contains("\"error\":\"wrong_role\"").contains("--role read");
        }
        for (String publicRead : new String[] {"/", "/ui/app.js", "/api/openapi.yaml", "/api/links/" + code + "/qr.svg"}) {
            assertThat(reader.call("GET", publicRead).status()).as("a read node serves " + publicRead).isEqualTo(200);
        }
        assertThat(call("GET", "/" + code, null, false).status()).isEqualTo(302);
    }

    @Test
    void aLinkCreatedOnOneNodeResolvesOnAnotherAtItsFirstLookUp() throws Exception {
        RunningApp other = startNode(Role.WRITE); // started before any id was taken: its bound is below every id
        start();
        key = Files.readString(dir.resolve("api-key")).strip(); // the other node made the first key
        String code = create("{\"url\":\"https://a.example/elsewhere\"}");
        assertThat(other.call("GET", "/" + code).header("Location")).isEqualTo("https://a.example/elsewhere");
        assertThat(other.call("GET", "/" + new ScrambledCodes(new byte[32]).encode(1L << 40)).status()).isEqualTo(404);
    }

    @Test
    void aDeleteOnOneNodeIsAnnouncedToTheOthersWhichStopRedirecting() throws Exception {
        start();
        String code = create("{\"url\":\"https://a.example/doomed\"}");
        RunningApp other = startNode(Role.READ);
        assertThat(other.call("GET", "/" + code).status()).isEqualTo(302); // now cached on the other node
        assertThat(call("DELETE", "/api/links/" + code, null, true).status()).isEqualTo(204);
        Await.until("the invalidation",
            () -> other.metric("hotpath_shortener_invalidations_received_total") >= 1);
        assertThat(other.call("GET", "/" + code).status()).isEqualTo(410);
    }

    /**
     * A node that keeps no links asks Redis for every redirect; its look-ups wait in a buffer until the
     * end of the event loop's turn, so a turn of pipelined misses must still all be sent and answered
     * from Redis (a look-up never sent would time out and be answered from PostgreSQL instead).
     */
    @Test
    void aTurnOfPipelinedMissesIsAnsweredFromRedis() throws Exception {
        start();
        int links = 16;
        List<String> codes = new ArrayList<>();
        for (int i = 0; i < links; i++) {
            codes.add(create("{\"url\":\"https://a.example/turn/" + i + "\"}"));
        }
        ShortenerConfig common = config(Role.READ, "scrambled", Set.of(), null).common();
        RunningApp reader = RunningApp.start(new ClusterConfig(common, PostgresConfig.parse(
            ThrowawayPostgres.shared().uri(database), name -> null).withPoolSize(2), RedisConfig.parse(
            ThrowawayRedis.shared().uri()).withCommandTimeout(PATIENT_CACHE_TIMEOUT), Role.READ, 0, Duration.ofSeconds(60),
            dir.resolve("reader-key")), clock);
        others.add(reader);
        for (String code : codes) { // PostgreSQL answers each once and fills Redis, without waiting for it
            assertThat(reader.call("GET", "/" + code).status()).isEqualTo(302);
        }
        for (String code : codes) { // so each is asked again until Redis answers it: every fill has landed
            Await.until("link " + code + " answered from Redis", () -> {
                double before = resolvedFromRedis(reader);
                return reader.call("GET", "/" + code).status() == 302 && resolvedFromRedis(reader) == before + 1;
            });
        }
        double fromRedis = resolvedFromRedis(reader);

        StringBuilder pipelined = new StringBuilder();
        codes.forEach(code -> pipelined.append("GET /").append(code).append(" HTTP/1.1\r\nHost: sho.rt\r\n\r\n"));
        try (RawHttpClient client = RawHttpClient.connect(reader.server().port())) {
            client.send(pipelined.toString());
            for (int i = 0; i < links; i++) {
                RawResponse answer = client.read();
                assertThat(answer.status()).isEqualTo(302);
                assertThat(answer.header("Location")).isEqualTo("https://a.example/turn/" + i);
            }
        }
        assertThat(resolvedFromRedis(reader)).isEqualTo(fromRedis + links);
    }

    private static double resolvedFromRedis(RunningApp node) {
        String series = "hotpath_shortener_resolves_total{tier=\"redis\"} ";
        for (String line : node.call("GET", "/metrics").bodyText().split("\n")) {
            if (line.startsWith(series)) {
                return Double.parseDouble(line.substring(series.length()).strip());
            }
        }
        throw new AssertionError("no " + series + "in the node's metrics");
    }

    @Test
    void idsAreNeverReusedWhenRedisIsFlushedAndTheNodeRestarts() throws Exception {
        start();
        Set<String> codes = new HashSet<>();
        for (int i = 0; i < 3; i++) {
            codes.add(create("{\"url\":\"https://a.example/before-" + i + "\"}"));
        }
        ThrowawayRedis.shared().flushAll();
        stop();
        start();
        for (int i = 0; i < 3; i++) {
            assertThat(codes.add(create("{\"url\":\"https://a.example/after-" + i + "\"}"))).isTrue();
        }
        for (String code : codes) {
            assertThat(call("GET", "/" + code, null, false).status()).as(code).isEqualTo(302);
        }
    }

    @Test
    void writeNodesStartingTogetherOnAnEmptyDatabaseCreateOneFirstKey() throws Exception {
        ExecutorService starts = Executors.newFixedThreadPool(2);
        try {
            List<Future<ClusterShortenerApp>> opened = new ArrayList<>();
            for (String node : new String[] {"one", "two"}) {
                Path nodeDir = Files.createDirectories(dir.resolve(node));
                opened.add(starts.submit(() -> ClusterShortenerApp.open(config(nodeDir,
                    ThrowawayPostgres.shared().uri(database), ThrowawayRedis.shared().uri(), Role.WRITE, "scrambled",
                    Set.of(), null, clock, CACHE_TIMEOUT), new PrometheusRegistry())));
            }
            List<ClusterShortenerApp> apps = new ArrayList<>();
            for (Future<ClusterShortenerApp> app : opened) {
                apps.add(app.get());
            }
            assertThat(apps).filteredOn(app -> app.createdKeyFile() != null).hasSize(1);
            apps.forEach(ClusterShortenerApp::close);
            try (PostgresDatabase db = new PostgresDatabase(PostgresConfig.parse(ThrowawayPostgres.shared().uri(database),
                name -> null))) {
                assertThat(PostgresApiKeys.list(db.reads())).hasSize(1);
            }
        } finally {
            starts.shutdownNow();
        }
    }

    @Test
    void twoWriteNodesNeverBothAcceptOneAlias() throws Exception {
        start();
        RunningApp second = startNode(Role.WRITE);
        int rounds = 20;
        ExecutorService clients = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < rounds; round++) {
                String body = "{\"url\":\"https://a.example/\",\"alias\":\"contested-" + round + "\"}";
                Callable<Integer> onFirst = () -> call("POST", "/api/links", body, true).status();
                Callable<Integer> onSecond = () -> second.call("POST", "/api/links", body, key).status();
                Future<Integer> a = clients.submit(onFirst);
                Future<Integer> b = clients.submit(onSecond);
                assertThat(List.of(a.get(), b.get())).as(body).containsExactlyInAnyOrder(201, 409);
            }
        } finally {
            clients.shutdownNow();
        }
    }

    @Test
    void visitsCountedOnTwoNodesAtOnceAddUp() throws Exception {
        start();
        RunningApp second = startNode(Role.WRITE);
        List<String> codes = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            codes.add(create("{\"url\":\"https://a.example/visited-" + i + "\"}"));
        }
        int visitsPerNode = 25;
        ExecutorService clients = Executors.newFixedThreadPool(2);
        try {
            Future<?> first = clients.submit(() -> visitEach(codes, visitsPerNode, code -> call("GET", "/" + code, null,
                false).status()));
            Future<?> other = clients.submit(() -> visitEach(codes, visitsPerNode, code -> second.call("GET", "/" + code)
                .status()));
            first.get();
            other.get();
        } finally {
            clients.shutdownNow();
        }
        for (String code : codes) {
            second.call("GET", "/api/links/" + code, null, key); // flushes the second node's counts first
            assertThat(call("GET", "/api/links/" + code, null, true).bodyText()).as(code)
                .contains("\"visits\":" + 2 * visitsPerNode);
        }
    }

    @Test
    void theVisitsAStoppingNodeCountedAreStoredByItsLastFlush() throws Exception {
        start();
        String code = create("{\"url\":\"https://a.example/visited-then-stopped\"}");
        RunningApp second = startNode(Role.READ);
        for (int i = 0; i < 3; i++) {
            assertThat(second.call("GET", "/" + code).status()).isEqualTo(302);
        }
        second.close();
        others.remove(second);

        assertThat(call("GET", "/api/links/" + code, null, true).bodyText()).contains("\"visits\":3");
    }

    @Test
    void aNodeFoldsTheLoggedVisitsIntoTheLinksTableOnItsOwnAtItsInterval() throws Exception {
        start();
        String code = create("{\"url\":\"https://a.example/folded-on-its-own\"}");
        ClusterConfig c = config(Role.READ, "scrambled", Set.of(), null);
        RunningApp folding = RunningApp.start(new ClusterConfig(c.common(), c.store(), c.cache(), c.role(),
            c.localCacheSize(), c.localCacheTtl(), dir.resolve("folding-key"), Duration.ofMillis(200)), clock);
        others.add(folding);
        for (int i = 0; i < 2; i++) {
            assertThat(folding.call("GET", "/" + code).status()).isEqualTo(302);
        }
        // No API read anywhere: only the node's once-a-second flush and its fold move the visits.
        Await.until("the visits folded into links", () -> visitsInTheTable("https://a.example/folded-on-its-own") == 2);
    }

    private long visitsInTheTable(String url) {
        try (Connection db = connectToDatabase(); Statement sql = db.createStatement();
             ResultSet row = sql.executeQuery("SELECT visits FROM links WHERE long_url = '" + url + "'")) {
            return row.next() ? row.getLong(1) : -1;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aReadNodeRefusesASchemaOlderThanItsReleaseAndNamesWhatToRun() throws Exception {
        start();
        try (Connection other = connectToDatabase(); Statement sql = other.createStatement()) {
            sql.execute("DROP TABLE visit_log"); // as the release before migration 2 left it
            sql.execute("DELETE FROM flyway_history_shortener WHERE version = '2'");
        }
        assertThatThrownBy(() -> startNode(Role.READ))
            .hasMessageContaining("The database schema is at version 1, older than this release's (2): start a"
                + " write node of this release first, or run hotpath shortener migrate");
    }

    @Test
    void aFoldThatMeetsALockedRowGivesUpSoonAndItsVisitsComeWithTheNextOne() throws Exception {
        start();
        String code = create("{\"url\":\"https://a.example/locked\"}");
        try (Connection other = connectToDatabase()) {
            other.setAutoCommit(false);
            try (Statement lock = other.createStatement()) {
                lock.execute("SELECT id FROM links FOR UPDATE"); // as another node's fold or delete would
            }
            assertThat(call("GET", "/" + code, null, false).status()).isEqualTo(302);
            // The API read logs and folds first; the fold gives up on the lock instead of holding the writer.
            assertThat(call("GET", "/api/links/" + code, null, true).bodyText()).contains("\"visits\":0");
            other.commit();
        }
        assertThat(call("GET", "/api/links/" + code, null, true).bodyText()).contains("\"visits\":1");
    }

    @Test
    void aFoldSkipsTheLoggedVisitsAnotherFoldHoldsAndTheyCountOnceLater() throws Exception {
        start();
        String code = create("{\"url\":\"https://a.example/logged\"}");
        try (Connection other = connectToDatabase(); Statement sql = other.createStatement()) {
            sql.execute("INSERT INTO visit_log (ids, counts) SELECT ARRAY[id], ARRAY[5::bigint] FROM links"
                + " WHERE long_url = 'https://a.example/logged'");
            sql.execute("INSERT INTO visit_log (ids, counts) SELECT ARRAY[id], ARRAY[7::bigint] FROM links"
                + " WHERE long_url = 'https://a.example/logged'");
            other.setAutoCommit(false);
            sql.execute("SELECT seq FROM visit_log ORDER BY seq LIMIT 1 FOR UPDATE"); // another node's fold
            assertThat(call("GET", "/api/links/" + code, null, true).bodyText()).contains("\"visits\":7");
            other.commit();
            assertThat(call("GET", "/api/links/" + code, null, true).bodyText()).contains("\"visits\":12");
            try (ResultSet left = sql.executeQuery("SELECT count(*) FROM visit_log")) {
                left.next();
                assertThat(left.getLong(1)).isZero();
            }
        }
    }

    private Connection connectToDatabase() throws SQLException {
        return DriverManager.getConnection(ThrowawayPostgres.shared().jdbcUrl(database), ThrowawayPostgres.USER, "");
    }

    private interface Visit {
        int status(String code) throws Exception;
    }

    /** Visits every code {@code times} times, round after round, so both nodes' flushes hold many links. */
    private static Void visitEach(List<String> codes, int times, Visit visit) throws Exception {
        for (int round = 0; round < times; round++) {
            for (String code : codes) {
                assertThat(visit.status(code)).as(code).isEqualTo(302);
            }
        }
        return null;
    }
}
