package dev.hotpath.cli;

import dev.hotpath.apps.shortener.ApiKeys;
import dev.hotpath.apps.shortener.PostgresApiKeys;
import dev.hotpath.store.PostgresConfig;
import dev.hotpath.store.PostgresDatabase;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import javax.sql.DataSource;

/**
 * {@code hotpath keys create|list|revoke [ID] (--data DIR | --store postgres://...)}: the shortener's API
 * keys; a running server sees changes within a second (a data directory) or five (PostgreSQL).
 */
@Command(name = "keys", mixinStandardHelpOptions = true, description = "Create, list or revoke the shortener's API keys.")
final class KeysCommand implements Callable<Integer> {
    enum Action { CREATE, LIST, REVOKE }

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", description = "create, list or revoke.")
    private Action action;

    @Parameters(index = "1", arity = "0..1", description = "The key id (revoke).")
    private String id;

    @Option(names = "--data", defaultValue = "./data", description = "Data directory (default: ${DEFAULT-VALUE}).")
    private Path data;

    @Option(names = "--store", description = "The scale-out mode's PostgreSQL instead, postgres://USER[:PASS]@HOST[:PORT]/DB.")
    private String store;

    @Override
    public Integer call() throws SQLException {
        if (store != null && spec.commandLine().getParseResult().hasMatchedOption("--data")) {
            throw new ParameterException(spec.commandLine(), "give --data or --store, not both");
        }
        if (store == null) {
            return run(new FileKeys(data), data.toString());
        }
        PostgresConfig config;
        try {
            config = PostgresConfig.parse(store, System::getenv).withPoolSize(1);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        try (PostgresDatabase database = new PostgresDatabase(config)) {
            return run(new TableKeys(database.reads()), config.database());
        }
    }

    /** Where the keys are: a data directory's file or the scale-out mode's table. */
    private interface KeyStore {
        ApiKeys.Created create(Clock clock) throws SQLException;

        List<ApiKeys.KeyInfo> list() throws SQLException;

        boolean revoke(String id, Clock clock) throws SQLException;
    }

    private record FileKeys(Path data) implements KeyStore {
        public ApiKeys.Created create(Clock clock) {
            return ApiKeys.create(data, clock);
        }

        public List<ApiKeys.KeyInfo> list() {
            return ApiKeys.list(data);
        }

        public boolean revoke(String id, Clock clock) {
            return ApiKeys.revoke(data, id, clock);
        }
    }

    private record TableKeys(DataSource db) implements KeyStore {
        public ApiKeys.Created create(Clock clock) throws SQLException {
            return PostgresApiKeys.create(db, clock);
        }

        public List<ApiKeys.KeyInfo> list() throws SQLException {
            return PostgresApiKeys.list(db);
        }

        public boolean revoke(String id, Clock clock) throws SQLException {
            return PostgresApiKeys.revoke(db, id, clock);
        }
    }

    private int run(KeyStore keys, String where) throws SQLException {
        PrintWriter out = spec.commandLine().getOut();
        Clock clock = Clock.systemUTC();
        switch (action) {
            case CREATE -> {
                ApiKeys.Created created = keys.create(clock);
                out.println("id " + created.id());
                out.println("key " + created.secret());
                out.println("(shown once; only its SHA-256 hash is stored)");
            }
            case LIST -> {
                for (ApiKeys.KeyInfo key : keys.list()) {
                    out.println(key.id() + " created " + key.createdAt()
                        + (key.active() ? " active" : " revoked " + key.revokedAt()));
                }
            }
            case REVOKE -> {
                if (id == null) {
                    throw new ParameterException(spec.commandLine(), "revoke needs the key id");
                }
                if (!keys.revoke(id, clock)) {
                    spec.commandLine().getErr().println("hotpath: no active key " + id + " in " + where);
                    return 1;
                }
                out.println("revoked " + id);
            }
        }
        return 0;
    }
}
