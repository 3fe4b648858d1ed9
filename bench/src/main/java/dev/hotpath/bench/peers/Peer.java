package dev.hotpath.bench.peers;

/**
 * A framework serving the users API on 127.0.0.1 the way its own documentation teaches: its routing,
 * its way of reading bodies and parameters, the access log, request id and bearer auth as its kind of
 * middleware, in that order, on {@code /api/*} only. The rules themselves come from {@link UsersApi},
 * {@link RequestIds}, {@link BearerAuth} and {@link AccessLog}, shared by every peer.
 */
interface Peer {
    /**
     * Binds {@code port} (0: any free port) and serves until the returned server is closed.
     *
     * @throws Exception whatever the framework throws when it cannot start
     */
    Running start(int port, UsersApi api, BearerAuth auth, AccessLog accessLog) throws Exception;

    /** A started server. */
    interface Running extends AutoCloseable {
        /** The port it is bound to. */
        int port();

        /** Stops accepting, ends the connections and releases the framework's threads. */
        @Override
        void close();
    }
}
