package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.apps.shortener.ShortenerApp;
import dev.hotpath.apps.shortener.ShortenerConfig;
import dev.hotpath.store.Durability;
import dev.hotpath.store.testing.ThrowawayPostgres;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hotpath shortener migrate|import} and {@code hotpath keys --store} against a throwaway PostgreSQL. */
class ScaleOutCommandsIT {
    private StringWriter out = new StringWriter();
    private StringWriter err = new StringWriter();

    @TempDir
    Path dir;

    private int run(String... args) {
        out = new StringWriter();
        err = new StringWriter();
        return Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test
    void migrateThenManageKeysInTheTable() {
        String store = ThrowawayPostgres.shared().createDatabase("commands_keys");
        assertThat(run("shortener", "migrate", "--store", store)).as(err.toString()).isZero();
        assertThat(out.toString()).contains("is migrated (--codes scrambled)");
        assertThat(run("shortener", "migrate", "--store", store)).as("a second migrate finds nothing to do").isZero();

        assertThat(run("keys", "create", "--store", store)).as(err.toString()).isZero();
        Matcher created = Pattern.compile("id (\\S+)\\nkey (hpk_\\S+)").matcher(out.toString());
        assertThat(created.find()).as(out.toString()).isTrue();
        assertThat(run("keys", "list", "--store", store)).isZero();
        assertThat(out.toString()).contains(created.group(1) + " created").contains(" active")
            .doesNotContain(created.group(2));
        assertThat(run("keys", "revoke", created.group(1), "--store", store)).isZero();
        assertThat(run("keys", "list", "--store", store)).isZero();
        assertThat(out.toString()).contains(" revoked ");
        assertThat(run("keys", "revoke", created.group(1), "--store", store)).isEqualTo(1);
        assertThat(err.toString()).contains("no active key " + created.group(1));
    }

    @Test
    void importMovesADataDirectoryAndNamesADirectoryWithoutAStore() {
        Path data = dir.resolve("data");
        assertThat(run("keys", "create", "--data", data.toString())).isZero();
        String store = ThrowawayPostgres.shared().createDatabase("commands_import");
        assertThat(run("shortener", "import", "--data", data.toString(), "--store", store)).isEqualTo(1);
        assertThat(err.toString()).contains("holds no shortener store");

        ShortenerApp.open(new ShortenerConfig(data, "http://sho.rt", "scrambled", Durability.FULL, 10, 1, 302, Set.of(),
            null, true, Clock.systemUTC()), new PrometheusRegistry()).close();
        assertThat(run("shortener", "import", "--data", data.toString(), "--store", store)).as(err.toString()).isZero();
        assertThat(out.toString()).contains("imported 0 links and 1 API keys");
        assertThat(run("keys", "list", "--store", store)).isZero();
        assertThat(out.toString()).contains(" active");

        String used = ThrowawayPostgres.shared().createDatabase("commands_import_used");
        assertThat(run("shortener", "migrate", "--store", used)).isZero();
        assertThat(run("keys", "create", "--store", used)).isZero(); // as a write node's first start would
        assertThat(run("shortener", "import", "--data", data.toString(), "--store", used)).isEqualTo(1);
        assertThat(err.toString()).contains("nodes have used this database");
    }
}
