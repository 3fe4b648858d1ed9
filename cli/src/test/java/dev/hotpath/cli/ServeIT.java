package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.testing.RawHttpClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hotpath serve} as a process: the fat jar started as users start it, stopped by signal. Output
 * goes to a file, not a pipe: the JDK may close a process pipe under a reader when the process exits,
 * losing the last lines.
 */
class ServeIT {
    private static final Pattern LISTENING = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+) ");
    private static final long STARTUP_DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(30);

    @TempDir
    Path dir;
    private Process process;

    @AfterEach
    void kill() {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
        }
    }

    @Test
    void servesUntilSigtermThenClosesConnectionsAndExitsZero() throws Exception {
        Path log = dir.resolve("serve.log");
        process = new ProcessBuilder(List.of(java(), "--sun-misc-unsafe-memory-access=allow",
            "--enable-native-access=ALL-UNNAMED", "-jar", System.getProperty("hotpath.jar"),
            "serve", "users", "--bind", "127.0.0.1:0"))
            .redirectErrorStream(true).redirectOutput(log.toFile()).start();

        try (RawHttpClient client = RawHttpClient.connect(awaitPort(log))) {
            assertThat(client.send("GET /ping HTTP/1.1\r\nHost: a\r\n\r\n").read().bodyText()).isEqualTo("pong");

            process.destroy(); // SIGTERM

            assertThat(client.closedByServer()).isTrue();
            assertThat(process.waitFor(10, TimeUnit.SECONDS)).as("exited within 10 s").isTrue();
            assertThat(process.exitValue()).isZero();
        }
        assertThat(Files.readAllLines(log)).contains("hotpath: draining", "hotpath: stopped");
    }

    /** Waits for the line that says where the server listens, or for the process to die. */
    private int awaitPort(Path log) throws IOException {
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

    private static String java() {
        return ProcessHandle.current().info().command().orElseThrow();
    }
}
