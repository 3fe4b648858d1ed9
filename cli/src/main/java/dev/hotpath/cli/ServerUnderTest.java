package dev.hotpath.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A server started from a command line for measured runs: on a free loopback port and a fresh data
 * directory ({@code {port}} and {@code {data}} in the command are replaced), its output in a file, ready
 * once it accepts a connection, stopped with SIGTERM (then SIGKILL after a grace), by {@link #close()} or,
 * when this process is itself stopped first (SIGTERM or SIGINT to it alone, {@code System.exit}), by a
 * shutdown hook: an interrupted suite must not leave a server busy on the core the next measurement
 * uses. Only a SIGKILL of this process leaves the server behind. The command runs
 * under {@code bash -c "exec ..."}, so the signal reaches the server itself, and the process's CPU time
 * and memory are the server's own as long as the command execs it ({@code taskset} and {@code java}
 * do; a wrapper script that forks does not).
 */
final class ServerUnderTest implements AutoCloseable {
    private static final Duration STOP_GRACE = Duration.ofSeconds(15);
    private final Process process;
    final int port;
    final Path dataDir;
    final Path log;
    private final Thread stopAtExit;

    private ServerUnderTest(Process process, int port, Path dataDir, Path log) {
        this.process = process;
        this.port = port;
        this.dataDir = dataDir;
        this.log = log;
        this.stopAtExit = new Thread(this::stop, "stop-server-" + process.pid());
        Runtime.getRuntime().addShutdownHook(stopAtExit);
    }

    static ServerUnderTest start(String command, Path dataDir, Path log, Duration readyTimeout) throws IOException {
        int port = freePort();
        String line = command.replace("{port}", Integer.toString(port)).replace("{data}", dataDir.toString());
        Process process = new ProcessBuilder(List.of("bash", "-c", "exec " + line)).redirectErrorStream(true)
            .redirectOutput(log.toFile()).start();
        ServerUnderTest server = new ServerUnderTest(process, port, dataDir, log);
        long deadline = System.nanoTime() + readyTimeout.toNanos();
        while (!server.accepts()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                server.close();
                throw new IOException("the server of '" + line + "' did not accept connections on port " + port
                    + " within " + readyTimeout.toSeconds() + " s (its output: " + log + ")");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
        return server;
    }

    /** Whether the server process still runs. */
    boolean isAlive() {
        return process.isAlive();
    }

    /**
     * The server process's CPU time so far (user and system, all its threads, as {@code /proc} counts it
     * in clock ticks), or -1 where the platform does not tell.
     */
    long cpuNanos() {
        return process.toHandle().info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
    }

    /**
     * The server process's peak resident set so far ({@code VmHWM} in {@code /proc/<pid>/status}), in
     * bytes; -1 where the platform does not tell or the process is gone. Read it before {@link #close()}.
     */
    long peakRssBytes() {
        return ProcStatus.peakRssBytes(process.pid());
    }

    /**
     * The JVM flags every measured server runs with, hotpath and peers alike: the repository's
     * {@code jvm.options}, which the launcher passes to every JVM it starts (Netty's and SQLite's access,
     * and the JIT flags the file explains). The build copies the file into this jar.
     */
    static final List<String> JVM_OPTIONS = readJvmOptions();

    /**
     * The start of a command line that runs a JVM server the way every measured server runs: this
     * process's {@code java} with {@link #JVM_OPTIONS}, pinned to core 0 with {@code taskset} when the
     * machine has two cores or more (its cores, not this process's: a generator pinned to core 1 must
     * still put the server on core 0 rather than share its own).
     */
    static String pinnedJava() {
        String java = ProcessHandle.current().info().command().orElse("java");
        String pin = Provenance.onlineCores() >= 2 && Files.isExecutable(Path.of("/usr/bin/taskset")) ? "taskset -c 0 " : "";
        return pin + java + " " + String.join(" ", JVM_OPTIONS);
    }

    /**
     * The flags of {@code jvm.options}: one per line; blank lines and lines starting with {@code #}
     * skipped. A line holding a space is refused: the JVM would split it (or take a trailing comment off
     * it) where a command line built from these flags would not.
     */
    static List<String> parseJvmOptions(String text) {
        List<String> flags = text.lines().map(String::strip).filter(line -> !line.isEmpty() && !line.startsWith("#"))
            .toList();
        for (String flag : flags) {
            if (flag.chars().anyMatch(Character::isWhitespace)) {
                throw new IllegalArgumentException("jvm.options holds one flag per line, without spaces: '" + flag + "'");
            }
        }
        return flags;
    }

    private static List<String> readJvmOptions() {
        try (InputStream in = ServerUnderTest.class.getResourceAsStream("jvm.options")) {
            if (in == null) {
                throw new IllegalStateException("jvm.options is missing from the jar: the build copies it there");
            }
            return parseJvmOptions(new String(in.readAllBytes(), StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** This build's jar (or classes directory, when run from the build), the one {@code ./hotpath} runs. */
    static Path thisJar() {
        return Path.of(ServerUnderTest.class.getProtectionDomain().getCodeSource().getLocation().getPath());
    }

    private boolean accepts() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(stopAtExit);
        } catch (IllegalStateException e) {
            // this process is exiting: the hook runs (or ran) stop() as well, which is harmless twice
        }
    }

    /** SIGTERM, then SIGKILL after the grace; returns once the process is gone (or the grace ran out). */
    private void stop() {
        process.destroy();
        try {
            if (!process.waitFor(STOP_GRACE.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(STOP_GRACE.toSeconds(), TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
