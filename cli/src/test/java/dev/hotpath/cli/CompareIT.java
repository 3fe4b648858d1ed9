package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.store.testing.ThrowawayRedis;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hotpath bench compare} starting real servers from the fat jar, each on a free port. */
class CompareIT {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private static String serve(String app) {
        return ProcessHandle.current().info().command().orElseThrow()
            + " " + String.join(" ", ServerUnderTest.JVM_OPTIONS) + " -jar "
            + System.getProperty("hotpath.jar") + " serve " + app + " --bind 127.0.0.1:{port} --event-loops 1";
    }

    private int run(String... args) {
        return Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test
    void alternatesTheServersAndPrintsEachRoundAndTheMedianRatio() throws Exception {
        int status = run("bench", "compare", "ping", "--a", serve("users"), "--b", serve("shortener --data {data}"),
            "--rounds", "2", "--connections", "2", "--duration", "300ms",
            "--results", dir.toString());
        assertThat(err.toString()).isEmpty();
        assertThat(status).as(out.toString()).isEqualTo(1);
        assertThat(out.toString()).contains("| 1 | A |", "| 1 | B |", "| 2 | A |", "| 2 | B |", "NOT VALID: a run failed");
        try (Stream<Path> runs = Files.list(dir)) {
            Path compare = runs.filter(p -> p.getFileName().toString().endsWith("-compare")).findFirst().orElseThrow();
            assertThat(Files.readString(compare.resolve("compare.md"))).contains("ratio A/B");
            assertThat(Files.readString(compare.resolve("compare.html"))).as("both servers' runs on the same charts")
                .contains("<th scope=\"col\">Server</th>", "\"label\":\"A1\"", "\"label\":\"A2\"", "\"label\":\"B1\"",
                    "\"label\":\"B2\"");
            assertThat(compare.resolve("A1")).isDirectory();
            assertThat(compare.resolve("B2")).isDirectory();
        }
    }

    @Test
    void passesWhenBothServersAnswerEveryRequest() {
        int status = run("bench", "compare", "ping", "--a", serve("users"), "--b", serve("users"), "--rounds", "1",
            "--connections", "2", "--duration", "300ms", "--results", dir.toString());
        assertThat(status).as(out + err.toString()).isZero();
        assertThat(out.toString()).containsPattern("ratio A/B \\d+\\.\\d{3}\\.")
            .as("the server's CPU per request over the measured period, read from /proc")
            .containsPattern("\\| 1 \\| A \\| \\d+\\.\\d \\| \\d+\\.\\d{2} \\|")
            .containsPattern("median server CPU µs/request A \\d+\\.\\d{2}, B \\d+\\.\\d{2}; B/A \\d+\\.\\d{3}\n")
            .as("each round's own ratios, and their median")
            .containsPattern("by round: req/s A/B \\d+\\.\\d{3} \\(median \\d+\\.\\d{3}\\); server CPU B/A \\d+\\.\\d{3} "
                + "\\(median \\d+\\.\\d{3}\\)\n");
    }

    @Test
    void keepsEachServerForEveryRoundWhenAsked() throws Exception {
        Path starts = dir.resolve("starts");
        int status = run("bench", "compare", "ping", "--a", recordingStarts("A", starts, serve("users")),
            "--b", recordingStarts("B", starts, serve("users")), "--keep-servers", "--rounds", "3",
            "--connections", "2", "--duration", "300ms", "--results", dir.toString());
        assertThat(status).as(out + err.toString()).isZero();
        assertThat(out.toString()).contains("| 1 | A |", "| 3 | B |");
        List<String> started = Files.readAllLines(starts);
        assertThat(started).as("one start per server").extracting(line -> line.split(" ")[0]).containsExactly("A", "B");
        assertStopped(started);
        Path compare = compareDirectory();
        assertThat(Files.readString(compare.resolve("compare.md"))).contains("kept for every round");
        assertThat(compare.resolve("A-data")).as("the kept servers' data directories are deleted").doesNotExist();
        assertThat(compare.resolve("B-data")).doesNotExist();
    }

    @Test
    void keptRedirectServersAskForTheLinksTheirFirstRoundSeeded() throws Exception {
        // Room for 50 links only: a second round that seeded again would be refused and fail.
        String shortener = serve("shortener --data {data} --max-links 50");
        int status = run("bench", "compare", "redirect", "--a", shortener, "--b", shortener, "--keep-servers",
            "--key-file", "{data}/api-key", "--links", "50", "--rounds", "2", "--connections", "2",
            "--duration", "300ms", "--results", dir.toString());
        assertThat(status).as(out + err.toString()).isZero();
        assertThat(out.toString()).contains("| 2 | A |", "| 2 | B |");
    }

    @Test
    void stopsTheKeptServerWhenTheOtherNeverStarts() throws Exception {
        Path starts = dir.resolve("starts");
        int status = run("bench", "compare", "ping", "--a", recordingStarts("A", starts, serve("users")),
            "--b", "exit 3 # {port}", "--keep-servers", "--ready-timeout", "5s", "--duration", "300ms",
            "--results", dir.toString());
        assertThat(status).isEqualTo(1);
        assertThat(err.toString()).contains("did not accept connections").doesNotContain("\tat ");
        assertStopped(Files.readAllLines(starts));
        assertThat(compareDirectory().resolve("A-data")).doesNotExist();
    }

    /** {@code command}, run so that each start appends {@code side} and the server's PID to {@code starts}. */
    private static String recordingStarts(String side, Path starts, String command) {
        return "sh -c 'echo " + side + " $$ >> " + starts + " && exec " + command + "'";
    }

    /** Every server whose start a line of {@code started} records ({@code side pid}) has stopped. */
    private static void assertStopped(List<String> started) {
        for (String line : started) {
            long pid = Long.parseLong(line.split(" ")[1]);
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).as(line).isNotEqualTo(Optional.of(true));
        }
    }

    private Path compareDirectory() throws Exception {
        try (Stream<Path> runs = Files.list(dir)) {
            return runs.filter(p -> p.getFileName().toString().endsWith("-compare")).findFirst().orElseThrow();
        }
    }

    @Test
    void runsEachServerOnItsOwnPath() throws Exception {
        try (ThrowawayRedis redis = ThrowawayRedis.launch()) {
            String messages = serve("messages --data {data} --durability normal");
            int status = run("bench", "compare", "messages", "--a", messages, "--b", messages + " --stream " + redis.uri(),
                "--a-path", "/message", "--b-path", "/message-fast", "--rounds", "1", "--connections", "2",
                "--duration", "300ms", "--drain-deadline", "60s", "--results", dir.toString());
            assertThat(status).as(out + err.toString()).isZero();
            Path compare;
            try (Stream<Path> runs = Files.list(dir)) {
                compare = runs.filter(p -> p.getFileName().toString().endsWith("-compare")).findFirst().orElseThrow();
            }
            assertThat(Files.readString(compare.resolve("compare.md"))).contains("(--path /message)", "(--path /message-fast)");
            assertThat(Files.readString(resultOf(compare.resolve("A1")))).as("A posted to /message: one re-read, 201")
                .doesNotContain("\"end_to_end\"");
            assertThat(Files.readString(resultOf(compare.resolve("B1")))).as("B posted to /message-fast: re-read in passes")
                .contains("\"end_to_end\"").contains("\"missing\" : 0");
        }
        out.getBuffer().setLength(0);
        int status = run("bench", "compare", "ping", "--a", serve("users"), "--b", serve("users"), "--b-path", "/nowhere",
            "--rounds", "1", "--connections", "2", "--duration", "300ms", "--results", dir.toString());
        assertThat(status).isEqualTo(1);
        assertThat(out.toString()).contains("| 1 | A |").containsPattern("\\| 1 \\| B \\| .*FAIL");
    }

    private static Path resultOf(Path run) throws Exception {
        try (Stream<Path> files = Files.walk(run)) {
            return files.filter(p -> p.getFileName().toString().equals("result.json")).findFirst().orElseThrow();
        }
    }

    @Test
    void failsWithOneLineWhenAServerNeverListens() {
        int status = run("bench", "compare", "ping", "--a", "true {port}", "--b", serve("users"), "--rounds", "1",
            "--duration", "300ms", "--ready-timeout", "5s", "--results", dir.toString());
        assertThat(status).isEqualTo(1);
        assertThat(err.toString()).contains("did not accept connections").doesNotContain("\tat ");
    }
}
