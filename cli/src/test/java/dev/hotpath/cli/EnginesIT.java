package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.store.testing.Await;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hotpath bench engines --quick} at tiny durations against stand-in servers from the fat jar
 * (the peers are built after this module, so {@code serve users} stands in for one): every run's files, the index, the tables and the charts
 * are written, and a server that answers wrong, or never starts, fails the whole command. The rate
 * runs may FAIL at these durations (the JITs are cold); a probe against a right server must PASS, as
 * a closed loop fails only on a wrong or missing answer.
 */
class EnginesIT {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private static String serve(String app) {
        return ProcessHandle.current().info().command().orElseThrow()
            + " " + String.join(" ", ServerUnderTest.JVM_OPTIONS) + " -jar "
            + System.getProperty("hotpath.jar") + " serve " + app + " --bind 127.0.0.1:{port} --event-loops 1";
    }

    private int engines(String... servers) {
        List<String> args = new ArrayList<>(List.of("bench", "engines", "--quick", "--warmup", "100ms",
            "--duration", "300ms", "--scenarios", "s1", "--results", dir.toString()));
        args.addAll(List.of(servers));
        return Main.run(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
    }

    private Path enginesDir() throws Exception {
        try (Stream<Path> runs = Files.list(dir)) {
            return runs.filter(p -> p.getFileName().toString().endsWith("-engines")).findFirst().orElseThrow();
        }
    }

    @Test
    void writesEveryRunsFilesTheIndexTheTableAndTheChartsOfEveryServer() throws Exception {
        int status = engines("--servers", "hotpath,netty", "--common-rate", "200",
            "--server", "hotpath=" + serve("users --access-log {data}/access.log {store}"), "--server", "netty=" + serve("users"));
        assertThat(err.toString()).isEmpty();
        assertThat(status).as(out.toString()).isIn(0, 1);
        Path engines = enginesDir();
        for (String run : List.of("s1-hotpath-r1-probe", "s1-hotpath-r1-rate", "s1-hotpath-r1-common", "s1-netty-r1-probe",
            "s1-netty-r1-rate", "s1-netty-r1-common")) {
            assertThat(engines.resolve(run)).as("%s, in the suite's table:%n%s", run, out).isDirectory();
            try (Stream<Path> files = Files.walk(engines.resolve(run))) {
                assertThat(files.map(p -> p.getFileName().toString())).as(run).contains("result.json", "report.html");
            }
            assertThat(engines.resolve(run + ".server.log")).exists();
            assertThat(engines.resolve(run + "-data")).as("the fresh data directory is gone").doesNotExist();
        }
        String index = Files.readString(engines.resolve("index.json"));
        assertThat(index).as("{store} is the scenario's store flags").contains("serve users --access-log {data}/access.log --store memory --bind");
        assertThat(index).contains("\"scenario\": \"s1\", \"server\": \"hotpath\", \"round\": 1, \"kind\": \"probe\"",
            "\"scenario\": \"s1\", \"server\": \"netty\", \"round\": 1, \"kind\": \"rate\"", "\"dir\": \"s1-netty-r1-rate/")
            .containsPattern("\"server\": \"hotpath\", \"round\": 1, \"kind\": \"common\", \"target_rps\": 200\\.0, ");
        assertThat(index).as("both probes passed: every answer right, and their figures recorded")
            .containsPattern("\"server\": \"hotpath\", \"round\": 1, \"kind\": \"probe\", \"target_rps\": 0\\.0, \"rps\": [\\d.E]+, "
                + "\"p50_ms\": [\\d.E]+, \"p99_ms\": [\\d.E]+, \"p999_ms\": [\\d.E]+, \"cpu_us_per_request\": [\\d.E]+, "
                + "\"peak_rss_bytes\": \\d+, \"errors\": 0, \"verdict\": \"PASS\"")
            .containsPattern("\"server\": \"netty\", \"round\": 1, \"kind\": \"probe\", .*\"errors\": 0, \"verdict\": \"PASS\"");
        String summary = Files.readString(engines.resolve("summary.md"));
        assertThat(summary).contains("## s1: GET /ping", "| Metric | hotpath | netty | hotpath / netty |",
            "| p99 ms at 0.7× | ", "| server CPU µs/req at 0.7× | ", "the common rate of 200 req/s")
            .containsPattern("\\| p99 ms at the common rate \\| \\d+\\.\\d{3} \\| \\d+\\.\\d{3} \\| \\d+\\.\\d{3} \\|")
            .containsPattern("\\| server CPU µs/req at the common rate \\| \\d+\\.\\d{2} \\| \\d+\\.\\d{2} \\| ")
            .containsPattern("\\| peak RSS MiB at the common rate \\| \\d+\\.\\d \\| \\d+\\.\\d \\| \\d+\\.\\d{3} \\|")
            .containsPattern("\\| req/s at saturation \\| [\\d,]+ \\| [\\d,]+ \\| \\d+\\.\\d{3} \\|")
            .containsPattern("\\| peak RSS MiB at saturation \\| \\d+\\.\\d \\| \\d+\\.\\d \\| \\d+\\.\\d{3} \\|");
        assertThat(Files.readString(engines.resolve("report.html"))).contains("<h2>s1: GET /ping</h2>",
            "<th scope=\"col\">hotpath / netty</th>", "\"label\":\"hotpath 1\"", "\"label\":\"netty 1\"");
        assertThat(out.toString()).contains("| s1 | hotpath | 1 | probe | ", "| s1 | netty | 1 | rate | ",
            status == 0 ? "PASS (" : "FAIL (");
    }

    @Test
    void trainsEachJvmServersOwnAotCacheAndRunsWithIt() throws Exception {
        String withJvmFlags = serve("users --access-log {data}/access.log {store}").replace(" --sun-misc", " {jvm} --sun-misc");
        int status = engines("--aot", "--servers", "hotpath,netty", "--server", "hotpath=" + withJvmFlags,
            "--server", "netty=" + serve("users"));
        assertThat(err.toString()).isEmpty();
        assertThat(status).as(out.toString()).isIn(0, 1);
        Path engines = enginesDir();
        Path cache = engines.resolve("s1-hotpath-aot.cache");
        assertThat(cache).as("the training's JVM wrote its cache on exit").isRegularFile();
        assertThat(engines.resolve("s1-netty-aot.cache")).as("a command without {jvm} gets none").doesNotExist();
        assertThat(out.toString()).contains("| s1 | hotpath | | aot | | | | | cache trained |",
            "| s1 | netty | | aot | | | | | no {jvm} in its command: runs without a cache |");
        String index = Files.readString(engines.resolve("index.json"));
        assertThat(index).as("every counted run of hotpath used the cache")
            .contains("java -XX:AOTCache=" + cache.toAbsolutePath() + " --sun-misc")
            .containsPattern("\"server\": \"hotpath\", \"round\": 1, \"kind\": \"probe\", .*\"errors\": 0, \"verdict\": \"PASS\"")
            .doesNotContain("AOTCacheOutput");
        assertThat(Files.readString(engines.resolve("summary.md")))
            .contains("own ahead-of-time cache", "- hotpath: `" + withJvmFlags.replace("{jvm}", "-XX:AOTCache={cache}"));
    }

    @Test
    void failsWhenAServerAnswersWrongOrNeverStartsAndStillWritesTheTable() throws Exception {
        int status = engines("--servers", "hotpath,netty,vertx", "--common-rate", "1e12", "--server", "hotpath=" + serve("users"),
            "--server", "netty=" + serve("shortener --data {data}"), "--server", "vertx=true {port}", "--ready-timeout", "5s");
        assertThat(err.toString()).isEmpty();
        assertThat(status).isEqualTo(1);
        Path engines = enginesDir();
        String index = Files.readString(engines.resolve("index.json"));
        assertThat(index).as("the shortener has no /ping: every answer an unexpected status")
            .containsPattern("\"server\": \"netty\", \"round\": 1, \"kind\": \"probe\", .*\"verdict\": \"FAIL\"")
            .contains("not run: the saturation probe sustained no rate")
            .containsPattern("\"server\": \"vertx\", \"round\": 1, \"kind\": \"probe\", .*\"verdict\": \"FAIL\", "
                + "\"reasons\": \\[\"the server of 'true \\d+' did not accept connections");
        String summary = Files.readString(engines.resolve("summary.md"));
        assertThat(summary).startsWith("# hotpath bench engines: FAIL")
            .contains("| Metric | hotpath | netty | vertx | hotpath / best peer |", "FAIL, the figures above do not count: ",
                "s1-netty-r1-probe: ", "s1-vertx-r1-rate: not run");
        assertThat(engines.resolve("report.html")).exists();
        assertThat(out.toString()).contains("| s1 | vertx | 1 | probe | | | | | FAIL: the server of", "FAIL (",
            "| s1 | hotpath | 1 | common | | | | | not run: 1,000,000,000,000 req/s is above 0.7× this server's saturation |");
        assertThat(summary).as("no server ran at the common rate: no rows for it").doesNotContain("at the common rate |");
    }

    @Test
    void aSuiteStoppedMidRunStopsTheServerItStarted() throws Exception {
        Path results = dir.resolve("results");
        ServerProcess suite = ServerProcess.run(dir.resolve("suite.log"), "bench", "engines", "--scenarios", "s1",
            "--servers", "hotpath", "--server", "hotpath=" + serve("users"), "--rounds", "1", "--warmup", "10m",
            "--duration", "1s", "--results", results.toString());
        List<ProcessHandle> servers = new ArrayList<>();
        try {
            Await.until("the suite's server to listen", () -> serverListens(results), suite::output);
            suite.process.descendants().forEach(servers::add);
            assertThat(servers).as("the server the suite started").isNotEmpty();
            suite.process.destroy(); // SIGTERM to the suite alone, as `kill PID` or a timeout sends it
            suite.awaitExit();
            for (ProcessHandle server : servers) {
                Await.until("server " + server.pid() + " to stop with the suite", () -> !server.isAlive());
            }
        } finally {
            suite.process.destroyForcibly();
            servers.forEach(ProcessHandle::destroyForcibly);
        }
    }

    private static boolean serverListens(Path results) throws Exception {
        if (!Files.isDirectory(results)) {
            return false;
        }
        try (Stream<Path> files = Files.walk(results)) {
            for (Path log : files.filter(p -> p.getFileName().toString().endsWith(".server.log")).toList()) {
                if (Files.readString(log).contains("listening on")) {
                    return true;
                }
            }
        }
        return false;
    }
}
