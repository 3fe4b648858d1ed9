package dev.hotpath.apps.shortener.internal;

import dev.hotpath.store.RedisConnections;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The links every node of the scale-out mode shares in Redis, and the channel on which a node tells
 * the others to drop a link: keys {@code hotpath:link:i:<id>} (generated codes) and
 * {@code hotpath:link:n:<name>} (aliases, protected codes), values in {@link CachedLink}'s form, each
 * with a TTL; invalidations on {@code hotpath:links:invalidate}.
 *
 * <p>No cached state can outlive a delete: a link read from PostgreSQL is written back only if the
 * key is absent ({@code SET NX}), and a delete overwrites the key with the deleted link (a tombstone)
 * instead of removing it, so a read that began before the delete and writes back after it cannot put
 * the live link back. A tombstone Redis refused (it is down) is kept here and written again when Redis
 * answers, so the only lost one is that of a node that dies before then; it expires with its TTL.
 *
 * <p>Redis is an optimization here, never a dependency: every command passes the {@link RedisBreaker},
 * a failure opens it, and while it is open a probe ({@code PING}) every {@value #PROBE_MILLIS} ms
 * closes it once Redis answers. Cost: one pipelined command per miss, the misses of one event-loop turn
 * sent together ({@link TurnFlushedGets}); writes go on the shared connection.
 */
final class RedisLinks implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(RedisLinks.class.getName());
    static final String CHANNEL = "hotpath:links:invalidate";
    private static final String PREFIX = "hotpath:link:";
    private static final long PROBE_MILLIS = 250;

    private final RedisAsyncCommands<String, String> commands;
    private final TurnFlushedGets lookups;
    private final StatefulRedisPubSubConnection<String, String> subscription;
    private final RedisBreaker breaker = new RedisBreaker();
    private final int redirectStatus;
    private final long ttlSeconds;
    /** Tombstones Redis did not take, by key; written again after the next successful probe. */
    private final Map<String, String> unwrittenTombstones = new ConcurrentHashMap<>();
    private final AtomicLong invalidationsSent = new AtomicLong();
    private final AtomicLong invalidationsReceived = new AtomicLong();

    /**
     * Subscribes to invalidations (Lettuce subscribes again by itself after a reconnect) and starts
     * probing on {@code scheduler} whenever the breaker is open.
     *
     * @param onInvalidate told the key ({@code Long} id or {@code String} name) another node changed
     * @param onReconnected told when the subscription connected again after a drop: invalidations sent
     *     meanwhile were missed, so every link held may be stale
     */
    RedisLinks(RedisConnections redis, Duration ttl, int redirectStatus, ScheduledExecutorService scheduler,
               Consumer<Object> onInvalidate, Runnable onReconnected) {
        this.commands = redis.shared().async();
        this.redirectStatus = redirectStatus;
        this.ttlSeconds = Math.max(1, ttl.toSeconds());
        this.lookups = new TurnFlushedGets(redis.openBuffered());
        try {
            this.subscription = redis.openPubSub();
        } catch (RuntimeException e) {
            lookups.close();
            throw e;
        }
        try {
            subscribe(onInvalidate);
        } catch (RuntimeException e) {
            close(); // what it opened, before its caller closes the client
            throw e;
        }
        redis.addConnectionListener(new RedisConnectionStateListener() {
            @Override
            public void onRedisConnected(RedisChannelHandler<?, ?> connection, SocketAddress address) {
                if (connection == subscription) {
                    onReconnected.run();
                }
            }
        });
        scheduler.scheduleWithFixedDelay(this::probeIfOpen, PROBE_MILLIS, PROBE_MILLIS, TimeUnit.MILLISECONDS);
    }

    private void subscribe(Consumer<Object> onInvalidate) {
        subscription.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String message) {
                Object key = keyOf(message);
                if (key != null) {
                    invalidationsReceived.incrementAndGet();
                    onInvalidate.accept(key);
                }
            }
        });
        subscription.sync().subscribe(CHANNEL);
    }

    /**
     * The link Redis holds for {@code key}: null when Redis has none or is skipped now; never fails
     * (a failure opens the breaker and reads as null, so the caller asks PostgreSQL).
     */
    CompletableFuture<CachedLink> get(Object key) {
        if (!breaker.closed()) {
            return CompletableFuture.completedFuture(null);
        }
        return lookups.get(redisKey(key)).toCompletableFuture().handle((value, error) -> {
            if (error != null) {
                breaker.failed();
                return null;
            }
            return value == null ? null : CachedLink.parse(value, key instanceof String name ? name : null, redirectStatus);
        });
    }

    /** Writes back what PostgreSQL answered, unless the key is there already (see the class comment). */
    void fill(Object key, CachedLink link) {
        if (breaker.closed()) {
            commands.set(redisKey(key), link.format(), SetArgs.Builder.nx().ex(ttlSeconds))
                .whenComplete((ok, error) -> failedIf(error));
        }
    }

    /** Overwrites {@code key} with the deleted link and tells every node to drop it. */
    void deleted(Object key, CachedLink tombstone) {
        String redisKey = redisKey(key);
        String value = tombstone.format();
        if (!breaker.closed()) {
            unwrittenTombstones.put(redisKey, value);
            // A probe may have closed the breaker and emptied the map between the check and the put.
            if (!breaker.closed() || !unwrittenTombstones.remove(redisKey, value)) {
                return;
            }
        }
        writeTombstone(redisKey, value);
    }

    private void writeTombstone(String redisKey, String value) {
        commands.set(redisKey, value, SetArgs.Builder.ex(ttlSeconds)).toCompletableFuture()
            .thenCompose(ok -> commands.publish(CHANNEL, redisKey.substring(PREFIX.length())).toCompletableFuture())
            .whenComplete((receivers, error) -> {
                if (error != null) {
                    unwrittenTombstones.put(redisKey, value);
                    breaker.failed();
                } else {
                    invalidationsSent.incrementAndGet();
                }
            });
    }

    private void probeIfOpen() {
        if (breaker.closed()) {
            return;
        }
        commands.ping().whenComplete((pong, error) -> {
            if (error == null) {
                breaker.probeSucceeded();
                LOG.log(System.Logger.Level.INFO, "Redis answers again; asking it from now on");
                unwrittenTombstones.forEach((redisKey, value) -> {
                    unwrittenTombstones.remove(redisKey, value);
                    writeTombstone(redisKey, value);
                });
            }
        });
    }

    private void failedIf(Throwable error) {
        if (error != null) {
            breaker.failed();
        }
    }

    RedisBreaker breaker() {
        return breaker;
    }

    long invalidationsSent() {
        return invalidationsSent.get();
    }

    long invalidationsReceived() {
        return invalidationsReceived.get();
    }

    static String redisKey(Object key) {
        return PREFIX + (key instanceof Long id ? "i:" + id : "n:" + key);
    }

    /** The key an invalidation names, or null for a message that is not one. */
    static Object keyOf(String message) {
        if (message.startsWith("i:")) {
            try {
                return Long.parseLong(message, 2, message.length(), 10);
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return message.startsWith("n:") && message.length() > 2 ? message.substring(2) : null;
    }

    /** Unsubscribes and closes the look-ups' connection; the shared one belongs to {@link RedisConnections}. */
    @Override
    public void close() {
        subscription.close();
        lookups.close();
    }
}
