package dev.hotpath.cli;

import dev.hotpath.loadgen.HtmlReport;
import dev.hotpath.loadgen.RunConfig;
import dev.hotpath.loadgen.RunResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.SequencedMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code hotpath bench compare SCENARIO --a CMD --b CMD [flags]}: the same run against two servers,
 * each started fresh for every run (free port, fresh data directory; or once for all rounds with
 * {@code --keep-servers}), alternated A B A B for {@code --rounds}, with the median ratio A/B of
 * answers per second. Every run must PASS for the comparison to count (exit 0); otherwise exit 1. Each
 * run also reads the server process's CPU time at the start and end of its measured period, for CPU per
 * request: on a noisy machine, the steadier figure ({@link ServerRun}). Pin the servers in their
 * commands (for example {@code taskset -c 0 ...}): a child inherits this process's CPU set.
 */
@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Run the same load against servers A and B in turn, A B A B, and print the median ratio.",
        "In CMD, {port} is a free port and {data} a fresh directory; e.g. --a 'taskset -c 0 ./hotpath serve users --bind 127.0.0.1:{port}'."})
final class CompareCommand implements Callable<Integer> {
    private static final List<String> COLUMNS = List.of("Round", "Server", "req/s", "server CPU µs/req", "p99 ms", "Verdict");
    private static final String KEPT = "Each server was started once and kept for every round (--keep-servers).";
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    @Spec
    private CommandSpec spec;

    @Option(names = "--a", required = true, paramLabel = "CMD", description = "Command that starts server A.")
    private String a;

    @Option(names = "--b", required = true, paramLabel = "CMD", description = "Command that starts server B.")
    private String b;

    @Option(names = "--a-path", paramLabel = "PATH",
        description = "Ping and messages: the --path of A's runs (default: --path), e.g. /message against B's /message-fast.")
    private String aPath;

    @Option(names = "--b-path", paramLabel = "PATH", description = "Ping and messages: the --path of B's runs (default: --path).")
    private String bPath;

    @Option(names = "--rounds", defaultValue = "3", description = "Rounds of A then B (default: ${DEFAULT-VALUE}).")
    private int rounds;

    @Option(names = "--keep-servers",
        description = {"Start A and B once and keep them for every round (each round its own warm-up and measured",
            "period): no start, stop or seeding between runs, and the JIT's first work is shared. Redirect and mixed",
            "runs then reuse the links of their first round ({data}/links.tsv unless --links-file says otherwise).",
            "The cost: what earlier rounds left (grown data, fuller caches, timers that only a long-lived server",
            "reaches) is measured too; not for runs whose writes must not reach the next (social)."})
    private boolean keepServers;

    @Option(names = "--ready-timeout", defaultValue = "60s", converter = Converters.Span.class,
        description = "How long a server may take to accept connections (default: ${DEFAULT-VALUE}).")
    private Duration readyTimeout;

    @Mixin
    private LoadOptions load;

    @Override
    public Integer call() throws IOException {
        if (rounds < 1 || rounds > 100) {
            throw new ParameterException(spec.commandLine(), "--rounds must be 1..100");
        }
        for (String command : List.of(a, b)) {
            if (!command.contains("{port}")) {
                throw new ParameterException(spec.commandLine(), "a server command must contain {port}: " + command);
            }
        }
        load.config("127.0.0.1", 1);
        load.validateScenario(Arrays.asList(aPath, bPath));
        if ((aPath != null || bPath != null) && !List.of("ping", "messages").contains(load.scenario)) {
            throw new ParameterException(spec.commandLine(), "--a-path and --b-path apply to ping and messages only");
        }
        if (keepServers && load.scenario.equals("social")) {
            throw new ParameterException(spec.commandLine(),
                "--keep-servers does not apply to social: each run needs the seed as it was (bench/social/on-fresh-seed.sh)");
        }
        Path dir = stampedDirectory(load.results, "compare");
        PrintWriter out = spec.commandLine().getOut();
        double[] rpsA = new double[rounds];
        double[] rpsB = new double[rounds];
        double[] cpuA = new double[rounds];
        double[] cpuB = new double[rounds];
        boolean allPass = true;
        List<List<String>> table = new ArrayList<>();
        SequencedMap<String, List<RunResult>> runsBySide = new LinkedHashMap<>();
        runsBySide.put("A", new ArrayList<>());
        runsBySide.put("B", new ArrayList<>());
        if (keepServers) {
            load.keepLinksIn("{data}/links.tsv");
        }
        try (ServerRun.Started keptA = keepServers ? ServerRun.start(a, dir, "A", readyTimeout) : null;
             ServerRun.Started keptB = keepServers ? ServerRun.start(b, dir, "B", readyTimeout) : null) {
            for (int round = 1; round <= rounds; round++) {
                for (String side : runsBySide.keySet()) {
                    ServerRun run = runOnce(side.equals("A") ? a : b, side.equals("A") ? keptA : keptB,
                        side.equals("A") ? aPath : bPath, dir, side + round);
                    RunResult result = run.result();
                    runsBySide.get(side).add(result);
                    (side.equals("A") ? rpsA : rpsB)[round - 1] = result.rps();
                    (side.equals("A") ? cpuA : cpuB)[round - 1] = run.cpuMicrosPerRequest();
                    boolean pass = result.verdict().pass();
                    allPass &= pass;
                    List<String> row = List.of(Integer.toString(round), side, String.format(Locale.ROOT, "%.1f", result.rps()),
                        String.format(Locale.ROOT, "%.2f", run.cpuMicrosPerRequest()), String.format(Locale.ROOT, "%.3f", result.latencyMillis(99)),
                        pass ? "PASS" : "FAIL: " + String.join("; ", result.verdict().reasons()));
                    table.add(row);
                    out.println("| " + String.join(" | ", row) + " |");
                }
            }
        }
        double ratio = median(rpsA) / median(rpsB);
        String verdict = String.format(Locale.ROOT, "median req/s A %.1f, B %.1f; ratio A/B %.3f. median server CPU µs/request "
                + "A %.2f, B %.2f; B/A %.3f%s", median(rpsA), median(rpsB), ratio, median(cpuA), median(cpuB),
            median(cpuB) / median(cpuA), allPass ? "" : " (NOT VALID: a run failed)");
        String byRound = "by round: req/s A/B " + pairedRatios(rpsA, rpsB) + "; server CPU B/A " + pairedRatios(cpuB, cpuA);
        StringBuilder report = new StringBuilder("# compare: " + load.command() + "\n\n| "
            + String.join(" | ", COLUMNS) + " |\n|---|---|---:|---:|---:|---|\n");
        for (List<String> row : table) {
            report.append("| ").append(String.join(" | ", row)).append(" |\n");
        }
        report.append('\n').append(verdict).append("\n\n").append(byRound).append("\n\nA: `").append(a).append('`').append(pathNote(aPath))
            .append("\n\nB: `").append(b).append('`').append(pathNote(bPath)).append('\n');
        if (keepServers) {
            report.append('\n').append(KEPT).append('\n');
        }
        Files.writeString(dir.resolve("compare.md"), report);
        Files.writeString(dir.resolve("compare.html"), HtmlReport.comparison("compare: " + load.command(), COLUMNS, table,
            verdict + " " + byRound + ". A: " + a + pathNote(aPath) + "; B: " + b + pathNote(bPath) + (keepServers ? "; " + KEPT : ""),
            runsBySide));
        out.println(verdict);
        out.println(byRound);
        out.println("(" + dir + ")");
        return allPass ? 0 : 1;
    }

    private static String pathNote(String path) {
        return path == null ? "" : " (--path " + path + ")";
    }

    /** One run: on {@code kept} when the servers are kept, else on a server of {@code command} started for it. */
    private ServerRun runOnce(String command, ServerRun.Started kept, String path, Path dir, String name) throws IOException {
        RunConfig config = load.config("127.0.0.1", 1);
        ServerRun.ScenarioSource scenario = data -> load.scenario(data, path);
        return kept == null ? ServerRun.measure(command, dir, name, readyTimeout, config, scenario, load.command())
            : ServerRun.measure(kept.server(), dir, name, config, scenario, load.command());
    }

    /** A new directory {@code <UTC stamp>-<kind>} under {@code root} for the files of one command. */
    static Path stampedDirectory(Path root, String kind) throws IOException {
        return Files.createDirectories(root.resolve(STAMP.format(Instant.now()) + "-" + kind));
    }

    /**
     * Each round's {@code top[i] / bottom[i]} and their median: the two runs of a round are the closest
     * in time, so on a machine whose speed drifts this is the steadier comparison beside the ratio of
     * the medians.
     */
    static String pairedRatios(double[] top, double[] bottom) {
        double[] ratios = new double[top.length];
        StringBuilder each = new StringBuilder();
        for (int i = 0; i < top.length; i++) {
            ratios[i] = top[i] / bottom[i];
            each.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.3f", ratios[i]));
        }
        return String.format(Locale.ROOT, "%s (median %.3f)", each, median(ratios));
    }

    static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
