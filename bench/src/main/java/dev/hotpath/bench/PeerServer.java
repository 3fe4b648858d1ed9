package dev.hotpath.bench;

import dev.hotpath.http.Transport;
import dev.hotpath.http.internal.Transports;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A Netty peer server bound the way hotpath binds: the same transport choice, the same socket
 * options, on 127.0.0.1. {@link #run} serves until the server channel closes ({@code args} are
 * {@code [port] [loops]}, one event loop per core unless told otherwise); {@link #bind} returns a
 * running server its caller closes.
 */
public final class PeerServer implements AutoCloseable {
    /**
     * How long {@link #close()} lets the event loops finish what they have. No quiet period: the
     * server channel is closed first, so no new work arrives while they wind down.
     */
    static final int SHUTDOWN_TIMEOUT_SECONDS = 5;

    private final EventLoopGroup group;
    private final Channel channel;
    private final Transport transport;

    private PeerServer(EventLoopGroup group, Channel channel, Transport transport) {
        this.group = group;
        this.channel = channel;
        this.transport = transport;
    }

    /** Binds 127.0.0.1:{@code port} (0: any free port) with {@code loops} event loops. */
    public static PeerServer bind(int port, int loops, Consumer<ChannelPipeline> pipeline) throws InterruptedException {
        Transports.Resolved transport = Transports.resolve(Transport.AUTO);
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(loops, transport.ioHandlerFactory());
        try {
            Channel channel = new ServerBootstrap().group(group).channel(transport.serverChannel())
                .option(ChannelOption.SO_BACKLOG, 4096)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        pipeline.accept(ch.pipeline());
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", port)).sync().channel();
            return new PeerServer(group, channel, transport.transport());
        } catch (InterruptedException | RuntimeException e) {
            group.shutdownGracefully(0, SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            throw e;
        }
    }

    static void run(String name, String[] args, int defaultPort, Consumer<ChannelPipeline> pipeline)
        throws InterruptedException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : defaultPort;
        int loops = args.length > 1 ? Integer.parseInt(args[1]) : Runtime.getRuntime().availableProcessors();
        try (PeerServer server = bind(port, loops, pipeline)) {
            System.out.println(name + " listening on http://127.0.0.1:" + server.port() + " (" + server.transport + ")");
            server.channel.closeFuture().sync();
        }
    }

    /** The bound port. */
    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /** Stops accepting, closes every connection and stops the event loops. */
    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
