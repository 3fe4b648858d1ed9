package dev.hotpath.bench.peers;

import java.time.Clock;
import java.util.concurrent.CountDownLatch;
import sun.misc.Signal;

/**
 * Starts one peer of the engine comparison suite in the foreground:
 * {@code java -cp bench/target/benchmarks.jar dev.hotpath.bench.peers.PeerMain NAME --port N ...}
 * (see {@link PeerConfig#USAGE}, or {@code ./hotpath bench peer NAME ...}). It prints one line,
 * {@code NAME listening on http://127.0.0.1:PORT}, once the port accepts, and on SIGTERM or SIGINT
 * closes the server, the access log and the store, then exits 0. A bad command line exits 2 with the
 * usage; a peer that cannot start exits 1.
 */
public final class PeerMain {
    private PeerMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        PeerConfig config;
        try {
            config = PeerConfig.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("peer: " + e.getMessage());
            System.err.print(PeerConfig.USAGE);
            System.exit(2);
            return;
        }
        // A shutdown hook cannot choose the exit status (143 on SIGTERM): catch the signals instead.
        CountDownLatch stop = new CountDownLatch(1);
        Signal.handle(new Signal("TERM"), signal -> stop.countDown());
        Signal.handle(new Signal("INT"), signal -> stop.countDown());
        RunningPeer peer;
        try {
            peer = RunningPeer.start(config, Clock.systemUTC());
        } catch (Exception e) {
            System.err.println("peer: " + config.name() + " did not start: " + e);
            System.exit(1);
            return;
        }
        try (peer) {
            System.out.println(config.name() + " listening on http://127.0.0.1:" + peer.port());
            stop.await();
        }
    }
}
