package dev.hotpath.cli;

import dev.hotpath.apps.messages.MessagesConfig;
import dev.hotpath.store.Durability;
import dev.hotpath.store.PostgresConfig;
import java.nio.file.Path;
import java.time.Clock;
import java.util.function.Predicate;
import picocli.CommandLine.Option;

/**
 * Where the messages service keeps messages, the flags {@code hotpath serve messages} and
 * {@code hotpath messages worker} share: SQLite under {@code --data}, or PostgreSQL at {@code --store}
 * (never both: a refused command line, exit 2).
 */
final class MessagesStoreOptions {
    @Option(names = "--data", defaultValue = "./data-messages",
        description = "Data directory of the SQLite store (default: ${DEFAULT-VALUE}); not with --store.")
    private Path data;

    @Option(names = "--store", paramLabel = "URI",
        description = "Keep messages in PostgreSQL instead, postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE"
            + " (without a password in it, PGPASSWORD's); the schema is migrated at start.")
    private String store;

    @Option(names = "--durability", defaultValue = "full", converter = Converters.DurabilityMode.class,
        description = "full (fsync per commit) or normal (SQLite only: survives kill -9, not power loss)"
            + " (default: ${DEFAULT-VALUE}).")
    private Durability durability;

    /**
     * The config these flags ask for, {@code given} telling which were on the command line; a refused
     * combination is an {@link InvalidFlags}.
     */
    MessagesConfig config(Predicate<String> given, int maxBatch) {
        try {
            if (store == null) {
                return new MessagesConfig(data, durability, maxBatch, Clock.systemUTC());
            }
            if (given.test("--data")) {
                throw new IllegalArgumentException("--data and --store exclude each other: messages are kept in"
                    + " SQLite under --data or in PostgreSQL at --store");
            }
            return new MessagesConfig(null, PostgresConfig.parse(store, System::getenv), durability, maxBatch,
                Clock.systemUTC(), null);
        } catch (IllegalArgumentException e) {
            throw new InvalidFlags(e.getMessage());
        }
    }
}
