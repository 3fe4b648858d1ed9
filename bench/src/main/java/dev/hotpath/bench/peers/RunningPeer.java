package dev.hotpath.bench.peers;

import java.time.Clock;

/**
 * A peer with everything it runs on: its store, its access log and its server. Closing stops the
 * server first (no request is in flight after it), then writes out the access log, then closes the
 * store, so every request answered is logged and every {@code 201} is in the store that closes.
 */
final class RunningPeer implements AutoCloseable {
    private final UserStore store;
    private final AccessLog accessLog;
    private final Peer.Running server;

    private RunningPeer(UserStore store, AccessLog accessLog, Peer.Running server) {
        this.store = store;
        this.accessLog = accessLog;
        this.server = server;
    }

    /** Opens the store and the log, and starts the peer; {@code clock} stamps the users created. */
    static RunningPeer start(PeerConfig config, Clock clock) throws Exception {
        UserStore store = config.openStore();
        try {
            AccessLog accessLog = AccessLog.open(config.accessLog());
            try {
                Peer.Running server = config.peer().start(config.port(), new UsersApi(store, clock),
                    new BearerAuth(config.token()), accessLog);
                return new RunningPeer(store, accessLog, server);
            } catch (Exception e) {
                accessLog.close();
                throw e;
            }
        } catch (Exception e) {
            store.close();
            throw e;
        }
    }

    int port() {
        return server.port();
    }

    @Override
    public void close() {
        try (store; accessLog; server) {
            // closed in the reverse order: server, access log, store
        }
    }
}
