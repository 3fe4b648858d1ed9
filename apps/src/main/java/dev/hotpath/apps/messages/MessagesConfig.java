package dev.hotpath.apps.messages;

import dev.hotpath.store.Durability;
import dev.hotpath.store.PostgresConfig;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;

/**
 * How to run the messages service; each field is a flag of {@code hotpath serve messages} (see
 * {@code docs/MESSAGES.md}). Messages are kept in exactly one place: SQLite in {@code dataDir}, or the
 * PostgreSQL database {@code store}.
 *
 * @param dataDir where {@code messages.db}, its lists ({@code lists.db}) and the directory lock live,
 *     created if missing; null with a {@code store}
 * @param store the PostgreSQL database ({@code --store}), or null for SQLite in {@code dataDir}
 * @param durability {@code FULL} (fsync per commit, the default) or {@code NORMAL} (survives
 *     {@code kill -9}, not power loss); {@code NONE} is refused: a message answered 201 must be stored.
 *     With PostgreSQL only {@code FULL}: every commit waits for its WAL flush ({@code synchronous_commit=on})
 * @param maxBatch most messages per group commit; 1 turns group commit off (for comparisons)
 * @param clock the ids' (and so {@code created_at}'s) time
 * @param stream the stream path ({@code --stream}), or null: {@code POST /message-fast} then answers
 *     {@code 503 stream_unavailable}
 */
public record MessagesConfig(Path dataDir, PostgresConfig store, Durability durability, int maxBatch, Clock clock,
                             StreamConfig stream) {
    public static final int MAX_BATCH = 256;

    /** SQLite in {@code dataDir}, without a stream. */
    public MessagesConfig(Path dataDir, Durability durability, int maxBatch, Clock clock) {
        this(dataDir, null, durability, maxBatch, clock, null);
    }

    /** PostgreSQL, without a stream. */
    public static MessagesConfig postgres(PostgresConfig store, int maxBatch, Clock clock) {
        return new MessagesConfig(null, store, Durability.FULL, maxBatch, clock, null);
    }

    public MessagesConfig withStream(StreamConfig stream) {
        return new MessagesConfig(dataDir, store, durability, maxBatch, clock, stream);
    }

    public MessagesConfig {
        Objects.requireNonNull(durability, "durability");
        Objects.requireNonNull(clock, "clock");
        if ((dataDir == null) == (store == null)) {
            throw new IllegalArgumentException("--data and --store exclude each other: messages are kept in one place");
        }
        if (!durability.persistent()) {
            throw new IllegalArgumentException("--durability must be full or normal: a message answered 201 is stored");
        }
        if (store != null && durability != Durability.FULL) {
            throw new IllegalArgumentException("--durability normal is SQLite's: PostgreSQL commits with"
                + " synchronous_commit=on");
        }
        if (maxBatch < 1) {
            throw new IllegalArgumentException("--max-batch must be at least 1, was " + maxBatch);
        }
    }
}
