package dev.hotpath.bench.peers;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * One instance of the Vert.x peer's HTTP server: a {@link Router} with the middleware as route
 * handlers on {@code /api/*} (access log, request id, bearer auth, each calling {@code next()}), a
 * {@link BodyHandler} on the create route, and the users routes. When the store blocks (SQLite), each
 * route runs its store call through {@code executeBlocking} on the worker pool, unordered so reads on
 * one event loop do not queue behind each other, and answers on the event loop when it completes.
 */
final class UsersVerticle extends VerticleBase {
    private final int port;
    private final AtomicInteger bound;
    private final UsersApi api;
    private final BearerAuth auth;
    private final AccessLog accessLog;

    /** Listens on {@code port} and sets {@code bound} to the port it got. */
    UsersVerticle(int port, AtomicInteger bound, UsersApi api, BearerAuth auth, AccessLog accessLog) {
        this.port = port;
        this.bound = bound;
        this.api = api;
        this.auth = auth;
        this.accessLog = accessLog;
    }

    @Override
    public Future<?> start() {
        Router router = Router.router(vertx);
        router.get("/ping").handler(ctx -> ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, "text/plain").end("pong"));
        router.route("/api/*").handler(this::accessLog).handler(this::requestId).handler(this::bearerAuth);
        router.get("/api/users/:id").handler(ctx -> reply(ctx, () -> api.find(ctx.pathParam("id"))));
        router.get("/api/users").handler(ctx -> reply(ctx,
            () -> api.page(ctx.queryParams().get("limit"), ctx.queryParams().get("after"))));
        router.post("/api/users")
            .handler(BodyHandler.create(false).setBodyLimit(UsersApi.MAX_BODY_BYTES))
            .handler(ctx -> {
                String contentType = ctx.request().getHeader(HttpHeaders.CONTENT_TYPE);
                Buffer body = ctx.body().buffer();
                byte[] bytes = body == null ? new byte[0] : body.getBytes();
                reply(ctx, () -> api.create(contentType, bytes));
            });
        // BodyHandler fails the route with 413 past the limit; answering it here keeps Vert.x from
        // logging each one as an unhandled failure.
        router.errorHandler(413, ctx -> ctx.response().setStatusCode(413).end());
        return vertx.createHttpServer().requestHandler(router).listen(port, "127.0.0.1")
            .onSuccess(server -> bound.set(server.actualPort()));
    }

    private void accessLog(RoutingContext ctx) {
        long start = System.nanoTime();
        ctx.addEndHandler(ended -> accessLog.record(ctx.response().headers().get(RequestIds.HEADER),
            ctx.request().method().name(), ctx.request().path(), ctx.response().getStatusCode(), start));
        ctx.next();
    }

    private void requestId(RoutingContext ctx) {
        ctx.response().putHeader(RequestIds.HEADER, RequestIds.pick(ctx.request().getHeader(RequestIds.HEADER)));
        ctx.next();
    }

    private void bearerAuth(RoutingContext ctx) {
        if (auth.allows(ctx.request().getHeader(HttpHeaders.AUTHORIZATION))) {
            ctx.next();
        } else {
            ctx.response().putHeader(BearerAuth.CHALLENGE_HEADER, BearerAuth.CHALLENGE);
            send(ctx, Reply.UNAUTHORIZED);
        }
    }

    private void reply(RoutingContext ctx, Supplier<Reply> call) {
        if (!api.blocking()) {
            send(ctx, call.get());
            return;
        }
        vertx.executeBlocking(call::get, false).onComplete(done -> {
            if (done.succeeded()) {
                send(ctx, done.result());
            } else {
                ctx.fail(done.cause());
            }
        });
    }

    private static void send(RoutingContext ctx, Reply reply) {
        ctx.response().setStatusCode(reply.status())
            .putHeader(HttpHeaders.CONTENT_TYPE, UserJson.CONTENT_TYPE)
            .end(Buffer.buffer(reply.body()));
    }
}
