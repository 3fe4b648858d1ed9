package dev.hotpath.apps.shortener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.testing.RawResponse;
import dev.hotpath.store.Durability;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shortener contract on the embedded store (a data directory), and what only that mode has. */
class EmbeddedShortenerIT extends ShortenerContract {
    private static final int MAX_LINKS = 5;

    @TempDir
    Path dir;
    private Durability durability = Durability.FULL;
    private boolean webPage = true;

    @Override
    Opened open(String codes, Set<String> denied, String metricsToken, PrometheusRegistry registry) {
        ShortenerApp opened = ShortenerApp.open(new ShortenerConfig(dir, "https://sho.rt/x/", codes, durability,
            MAX_LINKS, 256, 302, denied, metricsToken, webPage, clock), registry);
        return new Opened(opened, opened.createdKeyFile());
    }

    @Override
    long capacity() {
        return MAX_LINKS;
    }

    @Test
    void answersCapacityFullWithRetryAfterWhenMaxLinksIsReached() throws Exception {
        start();
        for (int i = 0; i < MAX_LINKS; i++) {
            create("{\"url\":\"https://a.example/" + i + "\"}");
        }
        RawResponse full = call("POST", "/api/links", "{\"url\":\"https://a.example/6\"}", true);
        assertThat(full.status()).isEqualTo(503);
        assertThat(full.header("Retry-After")).isEqualTo("1");
        assertThat(full.bodyText()).contains("capacity_full");
    }

    @Test
    void uiOffLeavesTheApiAloneAndAnswersThePagesPathsLikeAnyUnknownPath() throws Exception {
        webPage = false;
        start();
        for (String path : new String[] {"/", "/ui/app.js", "/ui/app.css", "/ui/icon.svg"}) {
            RawResponse answer = get(path);
            assertThat(answer.status()).as(path).isEqualTo(404);
            assertThat(answer.header("Content-Type")).as(path).isEqualTo("application/json");
        }
        String code = create("{\"url\":\"https://a.example/\"}");
        assertThat(get("/api/links/" + code + "/qr.svg").status()).isEqualTo(200);
        assertThat(get("/api/openapi.yaml").status()).isEqualTo(200);
    }

    @Test
    void durabilityNoneServesLinksFromMemoryAndWritesNoDatabase() throws Exception {
        durability = Durability.NONE;
        start();
        String code = create("{\"url\":\"https://a.example/memory\"}");
        assertThat(call("GET", "/" + code, null, false).header("Location")).isEqualTo("https://a.example/memory");
        assertThat(call("DELETE", "/api/links/" + code, null, true).status()).isEqualTo(204);
        assertThat(Files.exists(dir.resolve("links.db"))).isFalse();
    }

    @Test
    void reportsLiveLinksAsAMetric() throws Exception {
        start();
        create("{\"url\":\"https://a.example/\"}");
        assertThat(call("GET", "/metrics", null, false).bodyText()).contains("hotpath_shortener_links 1")
            .contains("hotpath_shortener_capacity 5");
    }
}
