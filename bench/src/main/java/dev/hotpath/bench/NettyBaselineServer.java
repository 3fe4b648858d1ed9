package dev.hotpath.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;

/**
 * The peer our engine is measured against ("our Axum"): a plain Netty server with the stock
 * {@link HttpServerCodec}, answering every request with {@code 200 text/plain pong}, written per request
 * and flushed once per read batch, as Netty's own hello-world example does. Same transport choice and
 * one event loop per core, like hotpath.
 *
 * <p>{@code java -cp bench/target/benchmarks.jar dev.hotpath.bench.NettyBaselineServer [port] [loops]}
 */
public final class NettyBaselineServer {
    private static final ByteBuf PONG = Unpooled.unreleasableBuffer(
        Unpooled.directBuffer().writeBytes("pong".getBytes(StandardCharsets.US_ASCII))).asReadOnly();

    private NettyBaselineServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        PeerServer.run("netty baseline", args, 8081, p -> p.addLast(new HttpServerCodec(), new PongHandler()));
    }

    private static final class PongHandler extends SimpleChannelInboundHandler<HttpObject> {
        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
            if (msg instanceof HttpRequest request) {
                boolean keepAlive = HttpUtil.isKeepAlive(request);
                FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    PONG.duplicate());
                response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.TEXT_PLAIN)
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, PONG.readableBytes());
                if (keepAlive) {
                    ctx.write(response);
                } else {
                    response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                    ctx.write(response).addListener(ChannelFutureListener.CLOSE);
                }
            }
        }
    }
}
