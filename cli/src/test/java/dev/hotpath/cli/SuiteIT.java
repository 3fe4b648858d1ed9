package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hotpath bench suite} at a fiftieth of its durations, against the shortener from the fat jar:
 * every claim runs on its own fresh server and gets its row in CLAIMS.md. At this scale the verdicts
 * may be FAIL (the JITs have no time to settle); the mechanics are what is checked here.
 */
class SuiteIT {
    @TempDir
    Path dir;

    @Test
    void measuresEveryClaimOnAFreshServerAndWritesClaims() throws Exception {
        String server = ProcessHandle.current().info().command().orElseThrow()
            + " " + String.join(" ", ServerUnderTest.JVM_OPTIONS) + " -jar "
            + System.getProperty("hotpath.jar") + " serve shortener --bind 127.0.0.1:{port} --data {data} --event-loops 1";
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Main.run(new String[] {"bench", "suite", "--server", server, "--scale", "0.02", "--results", dir.toString()},
            new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(err.toString()).isEmpty();
        assertThat(status).isIn(0, 1);
        Path suite;
        try (Stream<Path> runs = Files.list(dir)) {
            suite = runs.filter(p -> p.getFileName().toString().endsWith("-suite")).findFirst().orElseThrow();
        }
        List<String> rows = Files.readAllLines(suite.resolve("CLAIMS.md")).stream().filter(l -> l.startsWith("| ")).toList();
        assertThat(rows).hasSize(8); // the header and seven claims
        assertThat(rows.subList(1, 8)).allMatch(r -> r.contains("| PASS |") || r.contains("| FAIL: "));
        assertThat(String.join("\n", rows)).contains("durable mixed at 1,158 req/s", "redirect pipelined peak (64-deep)",
            "wide mixed (100,000 links, 10% misses)", "durable creates");
        assertThat(suite.resolve("03-3")).isDirectory();
        assertThat(out.toString()).contains(status == 0 ? "PASS (" : "FAIL (");
    }
}
