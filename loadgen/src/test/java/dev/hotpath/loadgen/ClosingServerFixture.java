package dev.hotpath.loadgen;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A raw server that answers each request (each empty line it reads ends one) with a 200, and closes
 * every connection without a word after a random number of them (seeded: 1 to 40), which no HTTP
 * engine would do on its own.
 */
final class ClosingServerFixture implements AutoCloseable {
    private static final byte[] OK = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.US_ASCII);
    final AtomicLong closes = new AtomicLong();
    private final MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final Channel server;
    private final Random random = new Random(20261130);

    ClosingServerFixture() throws InterruptedException {
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
            .childHandler(new ChannelInitializer<SocketChannel>() {
                @Override
                protected void initChannel(SocketChannel ch) {
                    ch.pipeline().addLast(new Closer(1 + random.nextInt(40)));
                }
            }).bind("127.0.0.1", 0).sync().channel();
    }

    int port() {
        return ((java.net.InetSocketAddress) server.localAddress()).getPort();
    }

    private final class Closer extends ChannelInboundHandlerAdapter {
        private int left;
        private int matched;

        Closer(int answers) {
            this.left = answers;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf in = (ByteBuf) msg;
            try {
                while (in.isReadable()) {
                    byte b = in.readByte();
                    matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : b == '\r' ? 1 : 0;
                    if (matched == 4) {
                        matched = 0;
                        if (left-- == 0) {
                            closes.incrementAndGet();
                            ctx.close();
                            return;
                        }
                        ctx.write(ctx.alloc().buffer(OK.length).writeBytes(OK));
                    }
                }
                ctx.flush();
            } finally {
                in.release();
            }
        }
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }
}
