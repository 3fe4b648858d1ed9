package dev.hotpath.cli;

import dev.hotpath.apps.messages.MessagesConfig;
import dev.hotpath.store.Durability;
import dev.hotpath.store.PostgresConfig;
import java.nio.file.Path;
import java.time.Clock;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

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

    /** The config these flags ask for; a refused combination is a {@link ParameterException} of {@code command}. */
    MessagesConfig config(CommandSpec command, int maxBatch) {
        try {
            if (store == null) {
                return new MessagesConfig(data, durability, maxBatch, Clock.systemUTC());
            }
            if (command.commandLine().getParseResult().hasMatchedOption("--data")) {
                throw new IllegalArgumentException("--data and --store exclude each other: messages are kept in"
                    + " SQLite under --data or in PostgreSQL at --store");
            }
            return new MessagesConfig(null, PostgresConfig.parse(store, System::getenv), durability, maxBatch,
                Clock.systemUTC(), null);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), e.getMessage());
        }
    }
}
