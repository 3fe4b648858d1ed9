package dev.hotpath.bench;

import dev.hotpath.http.Transport;
import dev.hotpath.http.internal.Transports;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The machine's ceiling for a Java server on the same transport: no HTTP parsing at all. It counts
 * request ends ({@code \r\n\r\n}) in each read and answers the whole batch with one write of that many
 * canned {@code pong} responses. Only valid for bodiless GETs whose terminator is not split across
 * reads in a way it miscounts; it exists to measure load generators and the transport, not to serve.
 *
 * <p>{@code java -cp bench/target/benchmarks.jar dev.hotpath.bench.RawSocketServer [port] [loops]}
 */
public final class RawSocketServer {
    private static final byte[] PONG = ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
        + "Date: Mon, 30 Nov 2026 00:00:00 GMT\r\nContent-Length: 4\r\n\r\npong").getBytes(StandardCharsets.US_ASCII);

    private RawSocketServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8082;
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
                        ch.pipeline().addLast(new BatchAnswerer());
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", port)).sync().channel();
            System.out.println("raw socket server listening on http://127.0.0.1:" + port + " (" + transport.transport() + ")");
            channel.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
        }
    }

    /** Counts terminators across reads (a match state of 0..3 bytes carried over) and answers in one write. */
    private static final class BatchAnswerer extends ChannelInboundHandlerAdapter {
        private int matched;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf in = (ByteBuf) msg;
            int requests = 0;
            for (int i = in.readerIndex(); i < in.writerIndex(); i++) {
                byte b = in.getByte(i);
                if ((matched == 0 || matched == 2) && b == '\r') {
                    matched++;
                } else if ((matched == 1 || matched == 3) && b == '\n') {
                    if (++matched == 4) {
                        requests++;
                        matched = 0;
                    }
                } else {
                    matched = b == '\r' ? 1 : 0;
                }
            }
            in.release();
            if (requests > 0) {
                ByteBuf out = ctx.alloc().ioBuffer(requests * PONG.length);
                for (int r = 0; r < requests; r++) {
                    out.writeBytes(PONG);
                }
                ctx.writeAndFlush(out);
            }
        }
    }
}
