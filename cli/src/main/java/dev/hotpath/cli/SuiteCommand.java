package dev.hotpath.cli;

import dev.hotpath.loadgen.Mode;
import dev.hotpath.loadgen.RunConfig;
import dev.hotpath.loadgen.RunResult;
import dev.hotpath.loadgen.Scenario;
import dev.hotpath.loadgen.scenario.CreateScenario;
import dev.hotpath.loadgen.scenario.MixedScenario;
import dev.hotpath.loadgen.scenario.RedirectScenario;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code hotpath bench suite}: the shortener's claims, each measured on a server of its own (free
 * port, fresh data directory, fresh key): durable mixed traffic at the 100-million-a-day average and a
 * 2× burst, round-trip saturation and pipelined peak (3 runs each), a pipelined rate run at 80% of
 * the measured peak, wide mixed traffic over 100,000 links with 10% misses, and durable creates.
 * Writes {@code CLAIMS.md}; exit 0 only when every run passed.
 */
@Command(name = "suite", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Measure the shortener's claims, each on a fresh server, and write CLAIMS.md.",
        "Pin the generator with 'taskset -c 1 ./hotpath bench suite'; the server runs on core 0."})
final class SuiteCommand implements Callable<Integer> {
    /** 100 million requests a day, on average per second. */
    static final double DAILY_AVERAGE_RPS = 100_000_000 / 86_400.0;
    /** Seconds of warm-up before every measured run: on one core each, both JITs settle in about 5 to 10 s. */
    private static final long WARMUP = 10;

    @Spec
    private CommandSpec spec;

    @Option(names = "--server", description = "Command that starts the shortener, with {port} and {data} "
        + "(default: this build's jar, pinned to core 0 when there are two cores or more).")
    private String server;

    @Option(names = "--scale", defaultValue = "1",
        description = "Multiplies every duration (0.1 for a quick check; claims need 1) (default: ${DEFAULT-VALUE}).")
    private double scale;

    @Option(names = "--results", defaultValue = "results", description = "Where the suite's directory goes (default: ${DEFAULT-VALUE}).")
    private Path results;

    private Path dir;
    private final List<String> rows = new ArrayList<>();
    private boolean allPass = true;

    @Override
    public Integer call() throws IOException {
        if (!(scale > 0 && scale <= 10)) {
            throw new ParameterException(spec.commandLine(), "--scale must be in (0, 10]");
        }
        String command = server != null ? server : defaultServer();
        if (!command.contains("{port}") || !command.contains("{data}")) {
            throw new ParameterException(spec.commandLine(), "--server must contain {port} and {data}");
        }
        dir = CompareCommand.stampedDirectory(results, "suite");
        PrintWriter out = spec.commandLine().getOut();

        RunConfig mixedRate = rate(DAILY_AVERAGE_RPS, 30);
        measure(out, command, "durable mixed at 1,158 req/s (100M a day)", 1, mixedRate, key -> mixed(key, 10_000, 1));
        measure(out, command, "durable mixed burst at 2,315 req/s", 1, rate(2 * DAILY_AVERAGE_RPS, 30), key -> mixed(key, 10_000, 1));
        measure(out, command, "redirect round-trip saturation", 3, saturate(1, 10), key -> redirects(key, 10_000));
        double peak = measure(out, command, "redirect pipelined peak (64-deep)", 3, saturate(64, 10), key -> redirects(key, 10_000));
        RunConfig pipelinedRate = new RunConfig("127.0.0.1", 1, Mode.RATE, Math.max(1, 0.8 * peak), 64, 64, 4 * 64,
            seconds(WARMUP), seconds(10), Duration.ofSeconds(10), 1, null, null, null, RunConfig.DEFAULT_MAX_GENERATOR_LAG_MILLIS, null);
        measure(out, command, String.format(Locale.ROOT, "redirect pipelined rate at 80%% of peak (%,.0f req/s)", 0.8 * peak), 1, pipelinedRate,
            key -> redirects(key, 10_000));
        measure(out, command, "wide mixed (100,000 links, 10% misses)", 1, saturate(1, 10), key -> mixed(key, 100_000, 10));
        measure(out, command, "durable creates", 1, saturate(1, 10), key -> new CreateScenario(key, 302));

        Files.writeString(dir.resolve("CLAIMS.md"), claims(command));
        out.println((allPass ? "PASS" : "FAIL") + " (" + dir.resolve("CLAIMS.md") + ")");
        return allPass ? 0 : 1;
    }

    private static Scenario mixed(String key, int links, int missPercent) {
        return new MixedScenario(new RedirectScenario(key, links, false, 302, null), new CreateScenario(key, 302), 5, missPercent);
    }

    private static Scenario redirects(String key, int links) {
        return new RedirectScenario(key, links, false, 302, null);
    }

    private RunConfig rate(double rps, long measuredSeconds) {
        return new RunConfig("127.0.0.1", 1, Mode.RATE, rps, 64, 1, RunConfig.DEFAULT_QUEUE, seconds(WARMUP), seconds(measuredSeconds),
            Duration.ofSeconds(10), 1, null, null, null, RunConfig.DEFAULT_MAX_GENERATOR_LAG_MILLIS, null);
    }

    private RunConfig saturate(int pipeline, long measuredSeconds) {
        return new RunConfig("127.0.0.1", 1, Mode.SATURATE, 0, 64, pipeline, RunConfig.DEFAULT_QUEUE, seconds(WARMUP),
            seconds(measuredSeconds), Duration.ofSeconds(10), 1, null, null, null, RunConfig.DEFAULT_MAX_GENERATOR_LAG_MILLIS, null);
    }

    private Duration seconds(long s) {
        return Duration.ofMillis(Math.max(100, (long) (s * 1000 * scale)));
    }

    /** Runs one claim {@code repeats} times, each on a fresh server; adds its row; returns the median req/s. */
    private double measure(PrintWriter out, String command, String claim, int repeats, RunConfig config,
                           Function<String, Scenario> scenario) throws IOException {
        double[] rps = new double[repeats];
        double[] p99 = new double[repeats];
        long requests = 0;
        double seconds = 0;
        boolean pass = true;
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < repeats; i++) {
            String name = String.format(Locale.ROOT, "%02d-%d", rows.size() + 1, i + 1);
            RunResult result = ServerRun.measure(command, dir, name, Duration.ofSeconds(60), config,
                data -> scenario.apply(Files.readString(data.resolve("api-key")).strip()), "hotpath bench suite: " + claim).result();
            rps[i] = result.rps();
            p99[i] = result.latencyMillis(99);
            requests += result.measured().ok();
            seconds += result.measuredSeconds();
            if (!result.verdict().pass()) {
                pass = false;
                failures.addAll(result.verdict().reasons());
            }
        }
        allPass &= pass;
        double median = CompareCommand.median(rps);
        String row = String.format(Locale.ROOT, "| %s | %s | %,.0f | %s | %,d | %.0f | %.3f |", claim, pass ? "PASS" : "FAIL: " + String.join("; ", failures),
            median, repeats > 1 ? String.format(Locale.ROOT, "%,.0f – %,.0f", Arrays.stream(rps).min().orElse(0), Arrays.stream(rps).max().orElse(0)) : "", requests, seconds, CompareCommand.median(p99));
        rows.add(row);
        out.println(row);
        return median;
    }

    private String claims(String command) {
        StringBuilder md = new StringBuilder("# CLAIMS: the shortener, measured by `hotpath bench suite`\n\n");
        md.append(allPass ? "Every run passed: no error, drop or mismatch, every acknowledged write verified.\n\n"
            : "**Not every run passed**: the failing rows say why; their figures are not claims.\n\n");
        md.append("| Scenario | Verdict | req/s (median) | Range | Requests | Seconds | p99 ms (median) |\n");
        md.append("|---|---|---:|---|---:|---:|---:|\n");
        rows.forEach(r -> md.append(r).append('\n'));
        md.append("\n- Machine: ").append(Provenance.machine()).append(", JDK ").append(Runtime.version()).append('\n');
        md.append("- Commit: ").append(Provenance.commit()).append('\n');
        md.append("- Server: `").append(command).append("`, a fresh one (free port, new data dir and key) per run\n");
        md.append("- Generator: `hotpath bench`, 64 connections, one event loop");
        md.append(scale == 1 ? "\n" : "; durations scaled by " + scale + " (not a claim)\n");
        md.append("- Caveats: loopback only (no network), the generator shares the machine with the server, "
            + "absolute numbers move between runs on a shared VM; compare ratios measured in one run.\n");
        return md.toString();
    }

    private static String defaultServer() {
        return ServerUnderTest.pinnedJava() + " -jar " + ServerUnderTest.thisJar()
            + " serve shortener --bind 127.0.0.1:{port} --data {data} --event-loops 1";
    }
}
