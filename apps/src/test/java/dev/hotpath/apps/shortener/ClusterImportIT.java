package dev.hotpath.apps.shortener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hotpath.http.testing.MutableClock;
import dev.hotpath.store.Durability;
import dev.hotpath.store.PostgresConfig;
import dev.hotpath.store.testing.ThrowawayPostgres;
import dev.hotpath.store.testing.ThrowawayRedis;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hotpath shortener import}: an embedded store moved into PostgreSQL keeps every code working. */
class ClusterImportIT {
    @TempDir
    Path data;
    @TempDir
    Path node;
    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-30T04:00:00Z"));

    @Test
    void everyCodeKeyAndVisitCountSurvivesTheMoveAndNewIdsComeAfterTheImportedOnes() throws Exception {
        Map<String, String> locations = new LinkedHashMap<>();
        String deleted;
        String key;
        try (RunningApp embedded = RunningApp.start(new ShortenerConfig(data, "https://sho.rt", "scrambled",
            Durability.FULL, 1000, 256, 302, Set.of(), null, true, clock))) {
            key = Files.readString(embedded.createdKeyFile()).strip();
            for (String body : new String[] {"{\"url\":\"https://a.example/plain\"}",
                "{\"url\":\"https://a.example/alias\",\"alias\":\"moved-alias\"}",
                "{\"url\":\"https://a.example/secret\",\"protected\":true}",
                "{\"url\":\"https://a.example/later\",\"expires_at\":\"2027-01-01T00:00:00Z\"}"}) {
                String code = embedded.create(body, key);
                locations.put(code, body.substring(body.indexOf("https"), body.indexOf('"', body.indexOf("https"))));
            }
            deleted = embedded.create("{\"url\":\"https://a.example/deleted\"}", key);
            assertThat(embedded.call("DELETE", "/api/links/" + deleted, null, key).status()).isEqualTo(204);
            String visited = locations.keySet().iterator().next();
            embedded.call("GET", "/" + visited, null, null);
            embedded.call("GET", "/" + visited, null, null);
        }

        String database = "imported_" + System.nanoTime();
        String uri = ThrowawayPostgres.shared().createDatabase(database);
        ThrowawayRedis.shared().flushAll();
        ClusterShortenerApp.Imported imported = ClusterShortenerApp.importEmbedded(data,
            PostgresConfig.parse(uri, name -> null));
        assertThat(imported).isEqualTo(new ClusterShortenerApp.Imported(5, 1));

        try (RunningApp cluster = RunningApp.start(PostgresShortenerIT.config(node, uri,
            ThrowawayRedis.shared().uri(), Role.ALL, "scrambled", Set.of(), null, clock,
            PostgresShortenerIT.CACHE_TIMEOUT), clock)) {
            assertThat(Files.exists(node.resolve("api-key"))).as("no new key: the imported one is there").isFalse();
            String visited = locations.keySet().iterator().next();
            assertThat(cluster.call("GET", "/api/links/" + visited, null, key).bodyText()).contains("\"visits\":2");
            for (Map.Entry<String, String> link : locations.entrySet()) {
                assertThat(cluster.call("GET", "/" + link.getKey()).header("Location")).as(link.getKey())
                    .isEqualTo(link.getValue());
            }
            assertThat(cluster.call("GET", "/" + deleted).status()).isEqualTo(410);
            String fresh = cluster.create("{\"url\":\"https://a.example/new\"}", key);
            assertThat(locations).doesNotContainKey(fresh);
            assertThat(fresh).isNotEqualTo(deleted);
        }
        assertThatThrownBy(() -> ClusterShortenerApp.importEmbedded(data, PostgresConfig.parse(uri, name -> null)))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("already holds links");
    }
}
