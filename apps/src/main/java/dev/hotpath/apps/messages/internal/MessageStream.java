package dev.hotpath.apps.messages.internal;

import dev.hotpath.store.RedisConnections;
import java.util.concurrent.CompletionStage;

/**
 * The serving side of the stream: appends an accepted message with {@code XADD} on the process's
 * shared, pipelined Redis connection, without waiting (the answer comes back on Lettuce's thread). A
 * command not answered within the Redis command timeout, or refused while the connection is down,
 * completes exceptionally.
 */
public final class MessageStream {
    private final RedisConnections redis;

    public MessageStream(RedisConnections redis) {
        this.redis = redis;
    }

    /** Appends {@code message}; completes with the entry's id once Redis has it. */
    CompletionStage<String> append(Message message) {
        return redis.shared().async().xadd(StreamEntries.STREAM, StreamEntries.fields(message));
    }
}
