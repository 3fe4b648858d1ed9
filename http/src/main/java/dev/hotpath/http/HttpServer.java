package dev.hotpath.http;

import dev.hotpath.http.internal.ChannelSetup;
import dev.hotpath.http.internal.Router;
import dev.hotpath.http.internal.ServerContext;
import dev.hotpath.http.internal.ServerMetrics;
import dev.hotpath.http.internal.Transports;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A running HTTP/1.1 server: one Netty event loop group (one loop per core by default) that accepts and
 * serves, a {@link Routes} table, and the limits of its {@link ServerConfig}.
 *
 * <p>Each loop runs a sweep every second for the request and idle deadlines, and one loop refreshes
 * the {@code Date} line each second. {@link #close(Duration)} drains: it stops accepting, closes idle
 * connections, lets requests in flight finish (their responses carry {@code Connection: close}), and
 * after the grace period closes whatever is left.
 */
public final class HttpServer implements AutoCloseable {
    /** How long {@link #close()} waits for requests in flight. */
    public static final Duration DEFAULT_GRACE = Duration.ofSeconds(8);
    private static final System.Logger LOG = System.getLogger(HttpServer.class.getName());

    private final ServerContext context;
    private final EventLoopGroup group;
    private final Channel serverChannel;
    private final Transport transport;
    private final ServerConfig config;
    private final ServerMetrics metrics;
    private final AtomicBoolean closed = new AtomicBoolean();

    private HttpServer(ServerContext context, EventLoopGroup group, Channel serverChannel, Transport transport,
                       ServerConfig config, ServerMetrics metrics) {
        this.context = context;
        this.group = group;
        this.serverChannel = serverChannel;
        this.transport = transport;
        this.config = config;
        this.metrics = metrics;
    }

    /**
     * Binds and starts serving.
     *
     * @throws IllegalStateException when the transport cannot run here or the address cannot be bound
     */
    public static HttpServer start(ServerConfig config, Routes routes) {
        Transports.Resolved resolved = Transports.resolve(config.transport());
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(config.eventLoops(), resolved.ioHandlerFactory());
        try {
            List<EventExecutor> executors = new ArrayList<>();
            group.forEach(executors::add);
            ServerContext context = new ServerContext(config.limits(),
                new Router(routes, config.limits().maxBodyBytes()), config.clock(), executors);
            executors.forEach(executor -> EventLoops.register(executor, context.turnTasks(executor)));
            Channel channel = new ServerBootstrap()
                .group(group)
                .channel(resolved.serverChannel())
                .option(ChannelOption.SO_BACKLOG, 4096)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelSetup(context))
                .bind(config.bind()).syncUninterruptibly().channel();
            for (EventExecutor executor : executors) {
                executor.scheduleAtFixedRate(() -> context.sweep(executor), 1, 1, TimeUnit.SECONDS);
            }
            executors.getFirst().scheduleAtFixedRate(context.date()::refresh, 1, 1, TimeUnit.SECONDS);
            ServerMetrics metrics = new ServerMetrics(context);
            config.metrics().register(metrics);
            HttpServer server = new HttpServer(context, group, channel, resolved.transport(), config, metrics);
            LOG.log(System.Logger.Level.DEBUG, "listening on {0} ({1}, {2} event loops)", server.address(),
                resolved.transport(), config.eventLoops());
            return server;
        } catch (Exception e) { // bind failures arrive as Netty's (checked) native IOException, thrown unchecked
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw new IllegalStateException("cannot listen on " + config.bind() + ": " + e.getMessage(), e);
        }
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    public int port() {
        return address().getPort();
    }

    /** The transport in use (never {@link Transport#AUTO}). */
    public Transport transport() {
        return transport;
    }

    public int openConnections() {
        return context.openConnections();
    }

    /**
     * Runs every loop's deadline sweep now and waits for it. The server also runs it each second; tests
     * that move an injected clock call this instead of waiting.
     */
    public void checkDeadlines() {
        onEveryLoop(context::sweep);
    }

    /** Drains with {@link #DEFAULT_GRACE}. */
    @Override
    public void close() {
        close(DEFAULT_GRACE);
    }

    /**
     * Stops accepting, closes idle connections, waits up to {@code grace} for requests in flight, then
     * closes the rest and stops the event loops. Idempotent.
     *
     * @return whether every connection closed within the grace period
     */
    public boolean close(Duration grace) {
        if (!closed.compareAndSet(false, true)) {
            return true;
        }
        long deadline = System.nanoTime() + grace.toNanos();
        serverChannel.close().syncUninterruptibly();
        onEveryLoop(context::beginDrain);
        boolean drained;
        try {
            drained = context.awaitNoConnections(deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            drained = false;
        }
        if (!drained) {
            onEveryLoop(context::closeAll);
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        config.metrics().unregister(metrics);
        return drained;
    }

    private void onEveryLoop(java.util.function.Consumer<EventExecutor> action) {
        List<Future<?>> done = new ArrayList<>();
        for (EventExecutor executor : group) {
            done.add(executor.submit(() -> action.accept(executor)));
        }
        done.forEach(Future::syncUninterruptibly);
    }
}
