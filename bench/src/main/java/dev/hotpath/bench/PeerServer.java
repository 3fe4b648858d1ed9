package dev.hotpath.bench;

import dev.hotpath.http.Transport;
import dev.hotpath.http.internal.Transports;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import java.net.InetSocketAddress;
import java.util.function.Consumer;

/**
 * Runs a peer server the way hotpath runs: the same transport choice, one event loop per core unless
 * told otherwise, the same socket options; {@code args} are {@code [port] [loops]}. Blocks until the
 * server channel closes.
 */
final class PeerServer {
    private PeerServer() {
    }

    static void run(String name, String[] args, int defaultPort, Consumer<ChannelPipeline> pipeline)
        throws InterruptedException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : defaultPort;
        int loops = args.length > 1 ? Integer.parseInt(args[1]) : Runtime.getRuntime().availableProcessors();
        Transports.Resolved transport = Transports.resolve(Transport.AUTO);
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(loops, transport.ioHandlerFactory());
        try {
            var channel = new ServerBootstrap().group(group).channel(transport.serverChannel())
                .option(ChannelOption.SO_BACKLOG, 4096)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        pipeline.accept(ch.pipeline());
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", port)).sync().channel();
            System.out.println(name + " listening on http://127.0.0.1:" + port + " (" + transport.transport() + ")");
            channel.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
        }
    }
}
