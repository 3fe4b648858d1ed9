package dev.hotpath.store;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.RedisCommand;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The Redis connections of one process: one Lettuce client, one shared connection for commands, and
 * buffered or pub/sub connections on demand.
 *
 * <p>The shared connection is thread-safe and pipelined: every thread writes its commands onto the
 * one socket without waiting for earlier answers, and Redis answers in order, so one connection
 * carries a whole server's traffic (a pool would only add sockets). The rule a caller keeps: no
 * blocking commands ({@code BLPOP}, {@code WAIT}) and no {@code MULTI} on it, as they stall or
 * interleave with everyone else's; subscribe on a connection of its own from {@link #openPubSub()}.
 *
 * <p>Failure is fast and bounded: a command not answered within the command timeout fails; while the
 * connection is down (Lettuce reconnects in the background) commands are rejected at once instead of
 * queued, so callers see the outage instead of a growing backlog.
 *
 * <p>Threads: Lettuce's default is one I/O and one computation thread per core, beside the HTTP
 * engine's event loops that already use every core. Here a handful of connections each live on one
 * event loop, and the computation pool only runs timeouts and reconnect delays, so both pools get the
 * smallest size Lettuce allows, two threads each.
 */
public final class RedisConnections implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(RedisConnections.class.getName());
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(2);
    /**
     * Connecting (TCP, then the handshake) may take longer than a command: a command timeout of a few
     * milliseconds (the shortener's cache) would fail every connect. Reconnects happen in the background.
     */
    private static final Duration MIN_CONNECT_TIMEOUT = Duration.ofSeconds(1);

    private final ClientResources resources;
    private final RedisClient client;
    private final StatefulRedisConnection<String, String> shared;

    /**
     * Connects the shared connection.
     *
     * @throws io.lettuce.core.RedisConnectionException when Redis does not answer within the command timeout
     */
    public RedisConnections(RedisConfig config) {
        Duration connectTimeout = config.commandTimeout().compareTo(MIN_CONNECT_TIMEOUT) < 0
            ? MIN_CONNECT_TIMEOUT : config.commandTimeout();
        this.resources = DefaultClientResources.builder()
            .ioThreadPoolSize(DefaultClientResources.MIN_IO_THREADS)
            .computationThreadPoolSize(DefaultClientResources.MIN_COMPUTATION_THREADS)
            .build();
        this.client = RedisClient.create(resources, RedisURI.builder()
            .withHost(config.host())
            .withPort(config.port())
            .withDatabase(config.database())
            .withTimeout(connectTimeout)
            .build());
        client.setOptions(ClientOptions.builder()
            .timeoutOptions(TimeoutOptions.builder().timeoutCommands()
                .timeoutSource(new SubscribeWaitsLikeAConnect(config.commandTimeout(), connectTimeout)).build())
            .socketOptions(SocketOptions.builder().connectTimeout(connectTimeout).keepAlive(true).build())
            .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
            .build());
        try {
            this.shared = client.connect();
        } catch (RuntimeException e) {
            shutdown();
            throw e;
        }
    }

    /** The connection every thread shares for commands; never close it. */
    public StatefulRedisConnection<String, String> shared() {
        return shared;
    }

    /**
     * Tells {@code listener} whenever a connection of this client connects, also after a reconnect
     * (a subscriber that was away may have missed messages).
     */
    public void addConnectionListener(RedisConnectionStateListener listener) {
        client.addListener(listener);
    }

    /**
     * A new connection whose commands wait in Lettuce's buffer until the caller calls
     * {@code flushCommands()}: many commands, one write. Only for commands of the caller's own, since a
     * flush sends everything buffered on the connection; the caller closes it.
     */
    public StatefulRedisConnection<String, String> openBuffered() {
        StatefulRedisConnection<String, String> connection = client.connect();
        connection.setAutoFlushCommands(false);
        return connection;
    }

    /** A new connection for subscribing; the caller closes it. */
    public StatefulRedisPubSubConnection<String, String> openPubSub() {
        return client.connectPubSub();
    }

    /**
     * Every command gets the command timeout but {@code SUBSCRIBE}, which gets the connect timeout: it is
     * sent once, when a node starts or its pub/sub connection comes back, right after a connect, and a
     * node must not fail to start because a busy machine answered it in 30 ms instead of 20 (seen in the
     * test suite with the shortener's 20 ms cache timeout).
     */
    private static final class SubscribeWaitsLikeAConnect extends TimeoutOptions.TimeoutSource {
        private final long commandNanos;
        private final long subscribeNanos;

        SubscribeWaitsLikeAConnect(Duration command, Duration connect) {
            this.commandNanos = command.toNanos();
            this.subscribeNanos = connect.toNanos();
        }

        @Override
        public long getTimeout(RedisCommand<?, ?, ?> command) {
            return command.getType() == CommandType.SUBSCRIBE ? subscribeNanos : commandNanos;
        }

        @Override
        public TimeUnit getTimeUnit() {
            return TimeUnit.NANOSECONDS;
        }
    }

    /** Closes the shared connection, then the client and its threads (pub/sub connections with it). */
    @Override
    public void close() {
        shared.close();
        shutdown();
    }

    private void shutdown() {
        client.shutdown(Duration.ZERO, SHUTDOWN_TIMEOUT);
        Future<Boolean> threadsEnded = resources.shutdown(0, SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        try {
            threadsEnded.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            LOG.log(System.Logger.Level.WARNING, "stopping the Redis client's threads failed", e);
        }
    }
}
