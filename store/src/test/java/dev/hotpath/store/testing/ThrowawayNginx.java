package dev.hotpath.store.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.function.IntFunction;
import java.util.stream.Stream;

/**
 * An nginx of its own for tests, never the system's service: Debian's {@code nginx} binary run in the
 * foreground ({@code daemon off}) with a temp dir as its prefix, the configuration the caller renders
 * for a free 127.0.0.1 port, its pid file and temp files in that dir and its error log (Debian's build
 * logs to stderr) in {@code nginx.log} there.
 *
 * <p>Stopped with SIGTERM, nginx's fast shutdown, and awaited with its workers: a SIGKILLed master
 * would leave its workers running, holding the port. A shutdown hook stops it too, so no nginx
 * outlives the test JVM unless that JVM is itself killed. As root the workers run as {@code nobody},
 * so the prefix is made searchable by others (mode 755) for their temp files. Not thread-safe.
 */
public final class ThrowawayNginx implements AutoCloseable {
    private static final Path DEBIAN_BINARY = Path.of("/usr/sbin/nginx");

    private final Path dir;
    private final Path log;
    private final Thread cleanup = new Thread(this::close, "throwaway-nginx-cleanup");
    private int port;
    private Process process;

    private ThrowawayNginx(Path dir) {
        this.dir = dir;
        this.log = dir.resolve("nginx.log");
    }

    /**
     * A new nginx running the configuration {@code configForPort} gives for the port it listens on (a
     * failed start, such as another process taking the port first, asks again for a fresh port); close
     * it when done.
     */
    public static ThrowawayNginx launch(IntFunction<String> configForPort) {
        ThrowawayNginx server;
        try {
            server = new ThrowawayNginx(Files.createTempDirectory("hotpath-nginx-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x"))));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temp dir for nginx", e);
        }
        Runtime.getRuntime().addShutdownHook(server.cleanup);
        try {
            ServerProcesses.startOnAFreePort(port -> {
                server.port = port;
                return server.tryStart(configForPort.apply(port));
            }, "nginx", server.log);
            return server;
        } catch (RuntimeException | Error e) { // Await's failures are AssertionErrors
            server.close();
            throw e;
        }
    }

    public int port() {
        return port;
    }

    /** {@code http://127.0.0.1:PORT}, as {@code hotpath bench --target} takes it. */
    public String uri() {
        return "http://127.0.0.1:" + port;
    }

    /** What nginx logged (its error log: start-up problems, upstreams it gave up on). */
    public String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + log, e);
        }
    }

    /** The temp dir nginx runs in (its prefix, configuration, pid file and log); gone after {@link #close()}. */
    public Path directory() {
        return dir;
    }

    /** Stops nginx and its workers if it runs and removes its temp dir. Idempotent. */
    @Override
    public void close() {
        if (process != null) {
            stop();
        }
        ServerProcesses.dispose(dir, cleanup);
    }

    private void stop() {
        List<ProcessHandle> workers = process.descendants().toList();
        ServerProcesses.signal(process.pid(), "TERM");
        ServerProcesses.awaitExit(process.toHandle());
        workers.forEach(ServerProcesses::awaitExit);
        process = null;
    }

    /**
     * Starts nginx and waits until it accepts connections; false if it exited instead. nginx writes its
     * pid file after binding its sockets, so a pid file naming this process tells that the port is
     * nginx's and not another process's that took it first.
     */
    private boolean tryStart(String config) {
        Path conf = dir.resolve("nginx.conf");
        Path pidFile = dir.resolve("nginx.pid");
        List<String> command = List.of(binary().toString(), "-p", dir + "/", "-c", conf.toString(),
            "-g", "daemon off; pid " + pidFile + ";");
        try {
            Files.writeString(conf, config);
            process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        }
        if (Await.untilOrExit("nginx accepting connections on port " + port, process, () -> {
            if (!Files.readString(pidFile).strip().equals(Long.toString(process.pid()))) {
                return false;
            }
            new Socket(InetAddress.getLoopbackAddress(), port).close();
            return true;
        }, () -> ServerProcesses.logTail(log))) {
            return true;
        }
        process = null;
        return false;
    }

    /** nginx on the PATH, else Debian's, which is off a plain user's PATH. */
    private static Path binary() {
        String path = System.getenv().getOrDefault("PATH", "");
        return Stream.concat(Stream.of(path.split(":")).filter(entry -> !entry.isEmpty())
                .map(entry -> Path.of(entry, "nginx")), Stream.of(DEBIAN_BINARY))
            .filter(Files::isExecutable).findFirst().orElseThrow(() -> new IllegalStateException("nginx is neither on the PATH nor in /usr/sbin: install the nginx package"));
    }
}
