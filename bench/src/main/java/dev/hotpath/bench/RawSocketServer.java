package dev.hotpath.bench;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
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
        PeerServer.run("raw socket server", args, 8082, p -> p.addLast(new BatchAnswerer()));
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
