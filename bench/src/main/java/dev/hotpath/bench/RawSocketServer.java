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

    /**
     * Counts request ends in each read by jumping from {@code \n} to {@code \n} (Netty's SWAR
     * {@code indexOf}) and looking back three bytes, carried over from the previous read when a
     * terminator is split; then answers the whole batch in one write.
     */
    private static final class BatchAnswerer extends ChannelInboundHandlerAdapter {
        /** The last three bytes of the previous read, oldest in the highest byte. */
        private int carried;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf in = (ByteBuf) msg;
            int start = in.readerIndex();
            int end = in.writerIndex();
            int requests = 0;
            for (int nl = in.indexOf(start, end, (byte) '\n'); nl >= 0; nl = in.indexOf(nl + 1, end, (byte) '\n')) {
                if (byteAt(in, start, nl - 1) == '\r' && byteAt(in, start, nl - 2) == '\n' && byteAt(in, start, nl - 3) == '\r') {
                    requests++;
                }
            }
            for (int i = Math.max(start, end - 3); i < end; i++) {
                carried = (carried << 8 | in.getByte(i) & 0xFF) & 0xFFFFFF;
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

        private int byteAt(ByteBuf in, int start, int index) {
            return index >= start ? in.getByte(index) : carried >>> (8 * (start - index - 1)) & 0xFF;
        }
    }
}
