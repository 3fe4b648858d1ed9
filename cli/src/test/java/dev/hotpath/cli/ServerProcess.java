package dev.hotpath.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code hotpath serve} run from the fat jar as its own process, its output in a file (not a pipe: the
 * JDK may close a process pipe under a reader when the process exits, losing the last lines).
 */
final class ServerProcess implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+) ");
    private static final long STARTUP_DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(30);

    final Process process;
    final Path log;

    private ServerProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    static ServerProcess start(Path log, String... serveArgs) throws IOException {
        return start(log, List.of(), serveArgs);
    }

    /** {@code hotpath serve ARGS}, its JVM started with {@code jvmFlags} after those of jvm.options. */
    static ServerProcess start(Path log, List<String> jvmFlags, String... serveArgs) throws IOException {
        List<String> args = new ArrayList<>(List.of("serve"));
        args.addAll(List.of(serveArgs));
        return run(log, jvmFlags, args.toArray(String[]::new));
    }

    /** {@code hotpath ARGS} from the fat jar, its output in {@code log}. */
    static ServerProcess run(Path log, String... args) throws IOException {
        return run(log, List.of(), args);
    }

    private static ServerProcess run(Path log, List<String> jvmFlags, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow()));
        command.addAll(ServerUnderTest.JVM_OPTIONS);
        command.addAll(jvmFlags);
        command.addAll(List.of("-jar", System.getProperty("hotpath.jar")));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new ServerProcess(process, log);
    }

    /** Waits for the line that says where the server listens; fails when the process dies first. */
    int awaitPort() throws IOException {
        long deadline = System.nanoTime() + STARTUP_DEADLINE_NANOS;
        while (System.nanoTime() < deadline && process.isAlive()) {
            Matcher m = LISTENING.matcher(Files.readString(log));
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        throw new AssertionError("the server never said where it listens:\n" + Files.readString(log));
    }

    /** Waits for the process to exit on its own and returns its status. */
    int awaitExit() throws InterruptedException {
        return awaitExit(Duration.ofSeconds(30));
    }

    /** Waits up to {@code deadline} for the process to exit on its own (a load run) and returns its status. */
    int awaitExit(Duration deadline) throws InterruptedException {
        if (!process.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("the process did not exit within " + deadline);
        }
        return process.exitValue();
    }

    String output() throws IOException {
        return Files.readString(log);
    }

    void sigkill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
