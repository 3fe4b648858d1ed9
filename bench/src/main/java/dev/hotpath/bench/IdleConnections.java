package dev.hotpath.bench;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Opens COUNT keep-alive connections to a server, makes one {@code GET /ping} on each (so the server
 * has set up and then idled every connection), prints {@code READY <count>}, holds them until a line
 * arrives on stdin or HOLD seconds pass, then closes them. Used to measure a server's memory per idle
 * connection ({@code bench/idle-memory.sh}).
 *
 * <p>{@code java -cp bench/target/benchmarks.jar dev.hotpath.bench.IdleConnections PORT COUNT HOLD}
 */
public final class IdleConnections {
    private static final byte[] PING = "GET /ping HTTP/1.1\r\nHost: bench\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private IdleConnections() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        int port = Integer.parseInt(args[0]);
        int count = Integer.parseInt(args[1]);
        long holdMillis = Long.parseLong(args[2]) * 1000;
        List<Socket> sockets = new ArrayList<>(count);
        try {
            for (int i = 0; i < count; i++) {
                Socket socket = new Socket();
                socket.setSoTimeout(10_000);
                socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
                socket.getOutputStream().write(PING);
                awaitPong(socket.getInputStream());
                sockets.add(socket);
            }
            System.out.println("READY " + sockets.size());
            System.out.flush();
            long deadline = System.currentTimeMillis() + holdMillis;
            while (System.currentTimeMillis() < deadline && System.in.available() == 0) {
                Thread.sleep(100); // holding idle connections open: nothing to synchronize with
            }
        } finally {
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }

    /** Reads until the body {@code pong} ends the response. */
    private static void awaitPong(InputStream in) throws IOException {
        byte[] tail = new byte[4];
        int b;
        while ((b = in.read()) >= 0) {
            System.arraycopy(tail, 1, tail, 0, 3);
            tail[3] = (byte) b;
            if (tail[0] == 'p' && tail[1] == 'o' && tail[2] == 'n' && tail[3] == 'g') {
                return;
            }
        }
        throw new IOException("connection closed before the response");
    }
}
