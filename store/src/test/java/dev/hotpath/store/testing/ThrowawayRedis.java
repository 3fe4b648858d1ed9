package dev.hotpath.store.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A Redis server of its own for tests: {@code redis-server} on a free 127.0.0.1 port with no
 * persistence ({@code --save "" --appendonly no}), its working dir a temp dir. {@link #restart()}
 * therefore comes back empty, like a cache node that lost its memory.
 *
 * <p>Tests share one server per JVM through {@link #shared()} and {@link #flushAll()} what they left;
 * a test that kills or pauses a server {@link #launch()}es its own and closes it. A shutdown hook
 * closes every server, so none outlives the test JVM unless that JVM is itself killed. Redis runs as
 * whoever runs the tests (it allows root). Not thread-safe: one test drives a server at a time.
 */
public final class ThrowawayRedis implements AutoCloseable {
    private final Path dir;
    private final Path log;
    private final Thread cleanup = new Thread(this::close, "throwaway-redis-cleanup");
    private int port;
    private Process process;

    private ThrowawayRedis(Path dir) {
        this.dir = dir;
        this.log = dir.resolve("redis.log");
    }

    /** The server this test JVM shares, launched on first use and closed when the JVM exits. */
    public static ThrowawayRedis shared() {
        return Shared.SERVER;
    }

    private static final class Shared {
        static final ThrowawayRedis SERVER = launch();
    }

    /** A new, empty server of the caller's own; close it when done. */
    public static ThrowawayRedis launch() {
        ThrowawayRedis server;
        try {
            server = new ThrowawayRedis(Files.createTempDirectory("hotpath-redis-"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temp dir for Redis", e);
        }
        Runtime.getRuntime().addShutdownHook(server.cleanup);
        try {
            ServerProcesses.startOnAFreePort(port -> {
                server.port = port;
                return server.tryStart();
            }, "redis-server", server.log);
            return server;
        } catch (RuntimeException | Error e) { // Await's failures are AssertionErrors
            server.close();
            throw e;
        }
    }

    public int port() {
        return port;
    }

    /** {@code redis://127.0.0.1:PORT}, the form {@code RedisConfig} parses. */
    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    /** Empties every database. */
    public void flushAll() {
        String reply = command("FLUSHALL");
        if (!reply.equals("+OK")) {
            throw new IllegalStateException("FLUSHALL answered " + reply);
        }
    }

    /** SIGKILLs the server (a crash) and waits until it is gone. */
    public void kill() {
        ServerProcesses.killTree(running());
        process = null;
    }

    /** SIGSTOPs the server: connections stay open and commands go unanswered until {@link #resume()}. */
    public void pause() {
        ServerProcesses.signal(running().pid(), "STOP");
    }

    /** SIGCONTs a {@link #pause()}d server: it answers what it was sent meanwhile. */
    public void resume() {
        ServerProcesses.signal(running().pid(), "CONT");
    }

    /** Starts the server again, empty, on the same port, after a {@link #kill()} or while it runs. */
    public void restart() {
        if (process != null) {
            kill();
        }
        if (!tryStart()) {
            throw new IllegalStateException("redis-server did not start again on port " + port + ": " + ServerProcesses.logTail(log));
        }
    }

    /** Kills the server if it runs and removes its temp dir. Idempotent. */
    @Override
    public void close() {
        if (process != null) {
            kill();
        }
        ServerProcesses.dispose(dir, cleanup);
    }

    /** Starts redis-server and waits until it answers PING; false if it exited instead. */
    private boolean tryStart() {
        List<String> command = List.of("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
            "--save", "", "--appendonly", "no", "--dir", dir.toString(), "--daemonize", "no");
        try {
            process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        }
        if (Await.untilOrExit("redis-server answering on port " + port, process,
            () -> command("PING").equals("+PONG"), () -> ServerProcesses.logTail(log))) {
            return true;
        }
        process = null;
        return false;
    }

    /** Sends one inline command and reads its one-line reply, over a fresh connection. */
    String command(String inline) {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout((int) ServerProcesses.DEADLINE.toMillis());
            OutputStream out = socket.getOutputStream();
            out.write((inline + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder reply = new StringBuilder();
            for (int b = in.read(); b != '\r' && b != -1; b = in.read()) {
                reply.append((char) b);
            }
            return reply.toString();
        } catch (IOException e) {
            throw new UncheckedIOException("Redis on port " + port + " did not answer " + inline, e);
        }
    }

    /** The temp dir holding everything the server wrote; gone after {@link #close()}. */
    public Path directory() {
        return dir;
    }

    private Process running() {
        if (process == null) {
            throw new IllegalStateException("redis-server is not running");
        }
        return process;
    }
}
