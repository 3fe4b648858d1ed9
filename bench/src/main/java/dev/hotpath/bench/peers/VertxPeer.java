package dev.hotpath.bench.peers;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The Vert.x web 5 peer (scenarios S1 to S4), set up as the Vert.x documentation scales an HTTP
 * server: one event loop per core, native transport preferred, and one {@link UsersVerticle} instance
 * per event loop, their servers sharing the port. Blocking store calls go to Vert.x's worker pool.
 */
final class VertxPeer implements Peer {
    /**
     * The port Vert.x reads as "any free port, shared by every server that asks for it": port 0 would
     * give each verticle instance a port of its own.
     */
    static final int SHARED_RANDOM_PORT = -1;

    @Override
    public Running start(int port, UsersApi api, BearerAuth auth, AccessLog accessLog) {
        int loops = Runtime.getRuntime().availableProcessors();
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(loops).setPreferNativeTransport(true));
        int listen = port == 0 ? SHARED_RANDOM_PORT : port;
        AtomicInteger bound = new AtomicInteger();
        try {
            vertx.deployVerticle(() -> new UsersVerticle(listen, bound, api, auth, accessLog),
                new DeploymentOptions().setInstances(loops)).await();
        } catch (RuntimeException e) {
            vertx.close().await();
            throw e;
        }
        return new Running() {
            @Override
            public int port() {
                return bound.get();
            }

            @Override
            public void close() {
                vertx.close().await();
            }
        };
    }
}
