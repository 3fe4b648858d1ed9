package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.store.testing.ThrowawayRedis;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hotpath bench messages --path /message-fast} against the real server with its Redis stream and
 * in-process worker: every 202 message is found again by the re-read passes, and the end-to-end lag is
 * in the console, summary.md and result.json.
 */
@Timeout(180)
class BenchMessagesFastIT {
    @TempDir
    Path dir;

    @Test
    void passesOnTheStreamPathAndReportsTheEndToEndLag() throws Exception {
        try (ThrowawayRedis redis = ThrowawayRedis.launch();
             ServerProcess server = ServerProcess.start(dir.resolve("server.log"), "messages", "--bind", "127.0.0.1:0",
                 "--data", dir.resolve("data").toString(), "--durability", "normal", "--stream", redis.uri())) {
            StringWriter out = new StringWriter();
            int exit = Main.run(new String[] {"bench", "messages", "--target", "http://127.0.0.1:" + server.awaitPort(),
                "--path", "/message-fast", "--connections", "2", "--duration", "300ms", "--drain-deadline", "60s",
                "--results", dir.resolve("results").toString()}, new PrintWriter(out, true),
                new PrintWriter(new StringWriter(), true));
            assertThat(exit).as(out.toString()).isZero();
            assertThat(out.toString()).contains("PASS: messages").contains("| Found after the run | ")
                .contains("| End-to-end lag (acknowledged → found) | p50 ");
            Path run;
            try (Stream<Path> runs = Files.list(dir.resolve("results"))) {
                run = runs.findFirst().orElseThrow();
            }
            assertThat(Files.readString(run.resolve("summary.md"))).contains("End-to-end lag");
            assertThat(Files.readString(run.resolve("result.json"))).contains("\"end_to_end\"").contains("\"lag_ms\"")
                .contains("\"missing\" : 0");
        }
    }
}
