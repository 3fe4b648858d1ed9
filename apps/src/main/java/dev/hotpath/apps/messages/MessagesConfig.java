package dev.hotpath.apps.messages;

import dev.hotpath.store.Durability;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;

/**
 * How to run the messages service; each field is a flag of {@code hotpath serve messages} (see
 * {@code docs/MESSAGES.md}).
 *
 * @param dataDir where {@code messages.db} and the directory lock live; created if missing
 * @param durability {@code FULL} (fsync per commit, the default) or {@code NORMAL} (survives
 *     {@code kill -9}, not power loss); {@code NONE} is refused: a message answered 201 must be stored
 * @param maxBatch most messages per group commit; 1 turns group commit off (for comparisons)
 * @param clock the ids' (and so {@code created_at}'s) time
 * @param stream the stream path ({@code --stream}), or null: {@code POST /message-fast} then answers
 *     {@code 503 stream_unavailable}
 */
public record MessagesConfig(Path dataDir, Durability durability, int maxBatch, Clock clock, StreamConfig stream) {
    public static final int MAX_BATCH = 256;

    /** Without a stream. */
    public MessagesConfig(Path dataDir, Durability durability, int maxBatch, Clock clock) {
        this(dataDir, durability, maxBatch, clock, null);
    }

    public MessagesConfig withStream(StreamConfig stream) {
        return new MessagesConfig(dataDir, durability, maxBatch, clock, stream);
    }

    public MessagesConfig {
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(durability, "durability");
        Objects.requireNonNull(clock, "clock");
        if (!durability.persistent()) {
            throw new IllegalArgumentException("--durability must be full or normal: a message answered 201 is stored");
        }
        if (maxBatch < 1) {
            throw new IllegalArgumentException("--max-batch must be at least 1, was " + maxBatch);
        }
    }
}
