package dev.hotpath.bench.peers;

import dev.hotpath.bench.PeerServer;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;

/**
 * The plain Netty peer, the floor of what a hand-written Netty server costs (scenarios S1 to S3): the
 * stock {@link HttpServerCodec}, an {@link HttpObjectAggregator} that answers 413 past
 * {@link UsersApi#MAX_BODY_BYTES}, and one {@link UsersHandler}, on hotpath's transport with one
 * event loop per core. It serves from memory only ({@link PeerConfig} refuses {@code --store sqlite}
 * for it): it calls the store on its event loops, where a blocking call has no place.
 */
final class NettyPeer implements Peer {
    @Override
    public Running start(int port, UsersApi api, BearerAuth auth, AccessLog accessLog) throws InterruptedException {
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
