package dev.hotpath.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.hotpath.loadgen.scenario.PingScenario;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * report.html and compare.html of real runs, opened in headless Chromium: the page's own script must
 * draw all three charts without an exception (it writes {@code data-state="drawn"} only then), and the
 * screenshot must hold a rendered page. The screenshots stay in {@code target/report-screenshots/} to
 * be looked at. A command line carrying markup must reach the page as text, not as elements.
 */
class HtmlReportIT {
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path SCREENSHOTS = Path.of("target", "report-screenshots");
    private static final String HOSTILE = "hotpath bench ping --path '</script><img src=x onerror=\"document.title='pwned'\">'";
    private static final String DRAWN = "<p id=\"charts-status\" data-state=\"drawn\">charts drawn: 3</p>";
    private static RunResult first;
    private static RunResult second;

    @TempDir
    Path dir;

    @BeforeAll
    static void runTwiceForThreeSeconds() throws Exception {
        try (ShortenerFixture server = new ShortenerFixture(ShortenerFixture.Fault.NONE)) {
            first = LoadRun.run(RunConfig.saturate("127.0.0.1", server.port(), 4, 8, Duration.ofSeconds(3)),
                new PingScenario("/ping", "pong"), Progress.NONE);
            second = LoadRun.run(RunConfig.saturate("127.0.0.1", server.port(), 2, 1, Duration.ofSeconds(3)),
                new PingScenario("/ping", "pong"), Progress.NONE);
        }
        assertThat(first.verdict().reasons()).isEmpty();
        assertThat(first.wholeSeconds()).hasSize(3);
    }

    @Test
    void aRunsReportDrawsItsChartsAndShowsItsSummaryAsATable() throws Exception {
        ResultWriter.write(dir, first, new ResultWriter.Provenance(HOSTILE, "abc123", "test machine"));
        String dom = open(dir.resolve("report.html"), "report.png");
        assertThat(dom).contains(DRAWN, "<table class=\"summary\">", "<th scope=\"row\">Latency</th>",
            "<title>hotpath bench: ping</title>", "&lt;/script&gt;&lt;img src=x");
        assertThat(dom).as("the command line is text, never an element").doesNotContain("<img");
        assertThat(count(dom, "class=\"chart\"")).isEqualTo(3);
        assertThat(count(dom, "<polyline")).as("a curve on each chart").isEqualTo(3);
    }

    @Test
    void aComparisonDrawsEveryRunOfBothServersOnTheSameCharts() throws Exception {
        SequencedMap<String, List<RunResult>> runs = new LinkedHashMap<>();
        runs.put("A", List.of(first));
        runs.put("B", List.of(second));
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("1", "A", String.format("%.1f", first.rps()), "PASS"));
        rows.add(List.of("1", "B", String.format("%.1f", second.rps()), "PASS"));
        Path page = dir.resolve("compare.html");
        Files.writeString(page, HtmlReport.comparison("compare: " + HOSTILE, List.of("Round", "Server", "req/s", "Verdict"),
            rows, "ratio A/B 1.000", runs));
        String dom = open(page, "compare.png");
        assertThat(dom).contains(DRAWN, "<th scope=\"col\">Server</th>", "ratio A/B 1.000").doesNotContain("<img");
        assertThat(count(dom, "class=\"chart\"")).isEqualTo(3);
        assertThat(count(dom, "<polyline")).as("two curves on each chart").isEqualTo(6);
    }

    @Test
    void aPageOfSectionsDrawsThreeChartsPerSectionAndAHuePerServer() throws Exception {
        List<HtmlReport.Series> fourServers = List.of(new HtmlReport.Series("hotpath 1", 0, first),
            new HtmlReport.Series("netty 1", 1, second), new HtmlReport.Series("vertx 1", 2, first),
            new HtmlReport.Series("helidon 1", 3, second));
        List<HtmlReport.Series> twoServers = List.of(new HtmlReport.Series("hotpath 1", 0, first),
            new HtmlReport.Series("raw 1", 1, second));
        List<String> header = List.of("Metric", "hotpath", "netty", "hotpath / best peer");
        Path page = dir.resolve("engines.html");
        Files.writeString(page, HtmlReport.sections("engines: " + HOSTILE, List.of(
            new HtmlReport.Section("s1", header, List.of(List.of("req/s", "1,000", "900", "1.111")), "PASS", fourServers),
            new HtmlReport.Section("p64", header, List.of(List.of("req/s", "2,000", "2,500", "0.800")), "PASS", twoServers))));
        String dom = open(page, "engines.png");
        assertThat(dom).contains("<p id=\"charts-status\" data-state=\"drawn\">charts drawn: 6</p>", "<h2>s1</h2>", "<h2>p64</h2>")
            .doesNotContain("<img");
        assertThat(count(dom, "class=\"chart\"")).isEqualTo(6);
        assertThat(count(dom, "<polyline")).as("four curves on each chart of s1, two on each of p64").isEqualTo(18);
        assertThat(dom).as("a hue of its own for each server").contains("stroke=\"#1f5fa8\"", "stroke=\"#d9651c\"",
            "stroke=\"#2e8540\"", "stroke=\"#7b3fa0\"");
    }

    /** Renders {@code page}: returns the DOM after its scripts ran, and saves a screenshot that must be a real image. */
    private String open(Path page, String screenshotName) throws Exception {
        if (!Files.isExecutable(CHROMIUM)) {
            fail("headless Chromium is needed at " + CHROMIUM + ": install the Debian package chromium "
                + "(apt-get install -y chromium)");
        }
        String dom = chromium(page, "--dump-dom");
        Files.createDirectories(SCREENSHOTS);
        Path png = SCREENSHOTS.resolve(screenshotName).toAbsolutePath();
        Files.deleteIfExists(png);
        chromium(page, "--screenshot=" + png, "--window-size=1200,1600");
        assertThat(png).exists();
        byte[] image = Files.readAllBytes(png);
        assertThat(image).as("a PNG").startsWith(0x89, 'P', 'N', 'G');
        assertThat(image.length).as("a page with a table and charts, not a blank one").isGreaterThan(40_000);
        return dom;
    }

    /** Runs headless Chromium on {@code page} with a profile of its own; returns what it printed. */
    private String chromium(Path page, String... action) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(dir, "chromium-profile");
        Path out = Files.createTempFile(dir, "chromium", ".out");
        Path err = Files.createTempFile(dir, "chromium", ".err");
        List<String> command = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
            "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
            "--disable-sync", "--user-data-dir=" + profile));
        command.addAll(List.of(action));
        command.add(page.toUri().toString());
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("chromium did not finish within 120 s: " + Files.readString(err, StandardCharsets.UTF_8));
        }
        assertThat(process.exitValue()).as(Files.readString(err, StandardCharsets.UTF_8)).isZero();
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    private static int count(String text, String what) {
        Matcher m = Pattern.compile(Pattern.quote(what)).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
