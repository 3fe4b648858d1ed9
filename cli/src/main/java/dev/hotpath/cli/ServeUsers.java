package dev.hotpath.cli;

import dev.hotpath.apps.App;
import dev.hotpath.apps.users.UsersApp;
import dev.hotpath.apps.users.UsersConfig;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code hotpath serve users}: the engine-comparison API (docs/ENGINES.md), in memory or on SQLite. */
@Command(name = "users", mixinStandardHelpOptions = true,
    description = {"The engine-comparison app: GET /ping, and /api/users behind access log, request id and bearer auth.",
        "In memory (S3) or on SQLite with creates committed before their 201 (S4)."})
final class ServeUsers extends AppCommand {
    @Option(names = "--store", defaultValue = "memory", description = "memory or sqlite (default: ${DEFAULT-VALUE}).")
    private String store;

    @Option(names = "--data", description = "Directory of the sqlite store's users.db (created when absent).")
    private Path data;

    @Option(names = "--token", defaultValue = UsersConfig.DEFAULT_TOKEN,
        description = "The bearer token /api/ requests must carry (default: the suite's, ${DEFAULT-VALUE}).")
    private String token;

    @Option(names = "--access-log", paramLabel = "FILE|-",
        description = "Write an access log line per /api/ request to FILE, or to standard output with '-' (default: none).")
    private String accessLog;

    @Override
    App open(InetSocketAddress bind, PrometheusRegistry metrics, Invocation invocation) {
        UsersConfig.Store kind = switch (store) {
            case "memory" -> UsersConfig.Store.MEMORY;
            case "sqlite" -> UsersConfig.Store.SQLITE;
            default -> throw new InvalidFlags("--store must be memory or sqlite, not " + store);
        };
        if (kind == UsersConfig.Store.SQLITE && data == null) {
            throw new InvalidFlags("--store sqlite needs --data DIR");
        }
        try {
            if (data != null) {
                Files.createDirectories(data);
            }
            return UsersApp.open(new UsersConfig(kind, data, token, accessLog, Clock.systemUTC()), metrics);
        } catch (IllegalArgumentException e) {
            throw new InvalidFlags(e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + data, e);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot open the users database in " + data + ": " + e.getMessage(), e);
        }
    }
}
