package dev.hotpath.cli;

import dev.hotpath.apps.App;
import dev.hotpath.apps.social.SocialApp;
import dev.hotpath.apps.social.SocialConfig;
import dev.hotpath.store.Durability;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code hotpath serve social}: the "$12 server challenge" feed API (docs/SOCIAL.md), configured the
 * way the challenge runs its entries: {@code SQLITE_PATH}, {@code JWT_SECRET}, {@code HOST} and
 * {@code PORT} from the environment, each overridable by a flag.
 */
@Command(name = "social", mixinStandardHelpOptions = true,
    description = "The social feed API of the \"$12 server challenge\" on a seeded SQLite database.")
final class ServeSocial extends AppCommand {
    @Option(names = "--sqlite-path", description = "The seeded database (default: $SQLITE_PATH).")
    private Path sqlitePath;

    @Option(names = "--jwt-secret", description = "HMAC secret of the tokens (default: $JWT_SECRET).")
    private String jwtSecret;

    @Option(names = "--durability", defaultValue = "normal", converter = Converters.DurabilityMode.class,
        description = "full (fsync per commit) or normal (survives kill -9, not power loss) (default: ${DEFAULT-VALUE}).")
    private Durability durability;

    /** {@code HOST} (127.0.0.1) and {@code PORT} (3000), as the challenge runs it. */
    @Override
    InetSocketAddress defaultBind() {
        String host = System.getenv().getOrDefault("HOST", "127.0.0.1");
        String port = System.getenv().getOrDefault("PORT", "3000");
        try {
            return new Converters.HostPort().convert(host + ":" + port);
        } catch (CommandLine.TypeConversionException e) {
            throw new InvalidFlags("HOST/PORT: " + e.getMessage());
        }
    }

    @Override
    App open(InetSocketAddress bind, PrometheusRegistry metrics, Invocation invocation) {
        Path database = sqlitePath;
        if (database == null && System.getenv("SQLITE_PATH") != null) {
            database = Path.of(System.getenv("SQLITE_PATH"));
        }
        String secret = jwtSecret != null ? jwtSecret : System.getenv("JWT_SECRET");
        if (database == null) {
            throw new InvalidFlags("serve social needs SQLITE_PATH or --sqlite-path");
        }
        if (secret == null || secret.isEmpty()) {
            throw new InvalidFlags("serve social needs JWT_SECRET or --jwt-secret");
        }
        try {
            return SocialApp.open(new SocialConfig(database, secret.getBytes(StandardCharsets.UTF_8), durability,
                Clock.systemUTC(), server.eventLoops() == 1));
        } catch (IllegalArgumentException e) {
            throw new InvalidFlags(e.getMessage());
        } catch (SQLException e) {
            throw new IllegalStateException("cannot open " + database + ": " + e.getMessage(), e);
        }
    }
}
