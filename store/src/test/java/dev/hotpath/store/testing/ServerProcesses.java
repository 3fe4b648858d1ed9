package dev.hotpath.store.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntPredicate;

/**
 * What the throwaway servers share: signals by PID, waiting for a process tree to end, removing a
 * temp dir ({@link Await#untilOrExit} waits for their starts). Every wait is bounded, so a wedged
 * server fails the test with a message instead of hanging the build.
 */
final class ServerProcesses {
    /** How long a server or a short command may take to exit; generous for two busy shared cores. */
    static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final int LAUNCH_ATTEMPTS = 5;

    private ServerProcesses() {
    }

    /**
     * Starts a server on a 127.0.0.1 port that was free a moment ago ({@code startOn} the port: true
     * once it runs there, false when it exited instead). Another process may take the port first, so a
     * failed start is retried on a fresh port, {@value #LAUNCH_ATTEMPTS} times at most.
     *
     * @return the port the server runs on
     */
    static int startOnAFreePort(IntPredicate startOn, String server, Path log) {
        for (int attempt = 1; attempt <= LAUNCH_ATTEMPTS; attempt++) {
            int port = FreePort.pick();
            if (startOn.test(port)) {
                return port;
            }
        }
        throw new IllegalStateException(server + " did not start in " + LAUNCH_ATTEMPTS + " attempts: " + logTail(log));
    }

    /** Sends {@code signal} (a name such as {@code STOP}) to {@code pid} with kill(1). */
    static void signal(long pid, String signal) {
        run(List.of("kill", "-s", signal, Long.toString(pid)), Path.of("/"));
    }

    /**
     * SIGKILLs {@code process} and waits until it and every process it had started have ended, so its
     * ports, locks and shared memory are free when this returns.
     */
    static void killTree(Process process) {
        List<ProcessHandle> children = process.descendants().toList();
        process.destroyForcibly(); // SIGKILL
        awaitExit(process.toHandle());
        children.forEach(ServerProcesses::awaitExit);
    }

    /** Waits until {@code process} has ended. */
    static void awaitExit(ProcessHandle process) {
        try {
            process.onExit().get(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for process " + process.pid(), e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("process " + process.pid() + " did not exit within " + DEADLINE, e);
        }
    }

    /** Runs a short command in {@code directory} to its end; its output goes to the test's stderr. */
    static void run(List<String> command, Path directory) {
        Process process;
        try {
            process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        }
        try {
            // Waited for through the Process, not its handle: the handle's exit can be seen before the
            // Process has its exit status, and exitValue() would then throw.
            if (!process.waitFor(DEADLINE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not exit within " + DEADLINE);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + command, e);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited with " + process.exitValue());
        }
    }

    /**
     * What a throwaway server's {@code close()} does once its process is gone: removes its temp dir and
     * its shutdown hook ({@code cleanup}), unless this runs from that hook, during shutdown.
     */
    static void dispose(Path dir, Thread cleanup) {
        deleteRecursively(dir);
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException shuttingDown) {
            // close() runs from the hook itself
        }
    }

    /** The last lines of a server's log, for the message of a failed start. */
    static String logTail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 10), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path directory, IOException failure) throws IOException {
                    Files.delete(directory);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + dir, e);
        }
    }
}
