package dev.hotpath.bench.peers;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The Netty peer's one handler, written as Netty's own examples are: it takes the aggregated
 * {@link FullHttpRequest}, routes on the decoded path, writes one {@link FullHttpResponse} and flushes
 * once per read batch. The middleware is plain code around the route, in the users API's order:
 * the access log times the request, the request id is picked and echoed, the bearer token is checked.
 * Shared by every connection: it keeps no state of its own.
 */
@ChannelHandler.Sharable
final class UsersHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final String USERS = "/api/users";
    private static final byte[] PONG = "pong".getBytes(StandardCharsets.US_ASCII);
    private static final Reply NO_ROUTE = new Reply(404, UserJson.error("not_found", "no such route"));
    private static final Reply NO_METHOD = new Reply(405, UserJson.error("method_not_allowed", "no such method here"));

    private final UsersApi api;
    private final BearerAuth auth;
    private final AccessLog accessLog;

    UsersHandler(UsersApi api, BearerAuth auth, AccessLog accessLog) {
        this.api = api;
        this.auth = auth;
        this.accessLog = accessLog;
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (!request.decoderResult().isSuccess()) {
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.BAD_REQUEST);
            response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        QueryStringDecoder uri = new QueryStringDecoder(request.uri());
        String path = uri.path();
        if (path.equals("/ping") && request.method().equals(HttpMethod.GET)) {
            write(ctx, request, response(HttpResponseStatus.OK, HttpHeaderValues.TEXT_PLAIN, PONG));
        } else if (path.startsWith("/api/")) {
            long start = System.nanoTime();
            String requestId = RequestIds.pick(request.headers().get(RequestIds.HEADER));
            boolean allowed = auth.allows(request.headers().get(HttpHeaderNames.AUTHORIZATION));
            Reply reply = allowed ? route(request, uri, path) : Reply.UNAUTHORIZED;
            FullHttpResponse response = response(HttpResponseStatus.valueOf(reply.status()),
                HttpHeaderValues.APPLICATION_JSON, reply.body());
            response.headers().set(RequestIds.HEADER, requestId);
            if (!allowed) {
                response.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, BearerAuth.CHALLENGE);
            }
            write(ctx, request, response);
            accessLog.record(requestId, request.method().name(), uri.rawPath(), reply.status(), start);
        } else {
            write(ctx, request, response(HttpResponseStatus.NOT_FOUND, HttpHeaderValues.APPLICATION_JSON,
                NO_ROUTE.body()));
        }
    }

    private Reply route(FullHttpRequest request, QueryStringDecoder uri, String path) {
        HttpMethod method = request.method();
        if (path.equals(USERS)) {
            if (method.equals(HttpMethod.GET)) {
                return api.page(first(uri, "limit"), first(uri, "after"));
            }
            if (method.equals(HttpMethod.POST)) {
                return api.create(request.headers().get(HttpHeaderNames.CONTENT_TYPE),
                    ByteBufUtil.getBytes(request.content()));
            }
            return NO_METHOD;
        }
        if (path.startsWith(USERS + "/") && path.indexOf('/', USERS.length() + 1) < 0) {
            return method.equals(HttpMethod.GET) ? api.find(path.substring(USERS.length() + 1)) : NO_METHOD;
        }
        return NO_ROUTE;
    }

    private static String first(QueryStringDecoder uri, String name) {
        List<String> values = uri.parameters().get(name);
        return values == null ? null : values.getFirst();
    }

    private static FullHttpResponse response(HttpResponseStatus status, CharSequence contentType, byte[] body) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
            Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType)
            .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        return response;
    }

    private static void write(ChannelHandlerContext ctx, FullHttpRequest request, FullHttpResponse response) {
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        HttpUtil.setKeepAlive(response, keepAlive);
        if (keepAlive) {
            ctx.write(response);
        } else {
            ctx.write(response).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
