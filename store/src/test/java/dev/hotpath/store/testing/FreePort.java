package dev.hotpath.store.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * A TCP port on 127.0.0.1 that was free a moment ago: bound to port 0, read, closed. Another process
 * may take it before the server does, so a caller that starts a server on it retries with a fresh port
 * when the server fails to start.
 */
final class FreePort {
    private FreePort() {
    }

    static int pick() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on 127.0.0.1", e);
        }
    }
}
