package dev.hotpath.bench.peers;

import dev.hotpath.bench.PeerServer;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;

/**
 * The plain Netty peer, the floor of what a hand-written Netty server costs (scenarios S1 to S3): the
 * stock {@link HttpServerCodec}, an {@link HttpObjectAggregator} that answers 413 past
 * {@link UsersApi#MAX_BODY_BYTES}, and one {@link UsersHandler}, on hotpath's transport with one
 * event loop per core. It has no SQLite store: blocking calls have no place on its event loops.
 */
final class NettyPeer implements Peer {
    @Override
    public Running start(int port, UsersApi api, BearerAuth auth, AccessLog accessLog) throws InterruptedException {
        if (api.blocking()) {
            throw new IllegalArgumentException("the netty peer serves from memory only (S1 to S3)");
        }
        UsersHandler handler = new UsersHandler(api, auth, accessLog);
        PeerServer server = PeerServer.bind(port, Runtime.getRuntime().availableProcessors(), pipeline ->
            pipeline.addLast(new HttpServerCodec(), new HttpObjectAggregator(UsersApi.MAX_BODY_BYTES), handler));
        return new Running() {
            @Override
            public int port() {
                return server.port();
            }

            @Override
            public void close() {
                server.close();
            }
        };
    }
}
