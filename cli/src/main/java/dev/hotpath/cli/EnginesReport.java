package dev.hotpath.cli;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.hotpath.loadgen.HtmlReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.SequencedMap;
import java.util.function.ToDoubleFunction;

/**
 * The files of {@code hotpath bench engines} besides each run's own: {@code index.json} (every run and
 * its figures), {@code summary.md} (per scenario a table, metrics by server, medians over the rounds,
 * with hotpath over the best peer, and its verdict) and {@code report.html} (the same tables, and per
 * scenario every server's runs on one set of charts: the constant-rate runs, or the probes where there
 * are none). A run that did not pass still has its figures in the tables: the verdict under the table
 * says it does not count.
 */
final class EnginesReport {
    private static final double MIB = 1024 * 1024;
    private static final List<Metric> METRICS = List.of(
        new Metric("req/s at saturation", EngineRun.Kind.PROBE, true, "%,.0f", r -> r.result().rps()),
        new Metric("p50 ms at 0.7×", EngineRun.Kind.RATE, false, "%.3f", r -> r.result().latencyMillis(50)),
        new Metric("p99 ms at 0.7×", EngineRun.Kind.RATE, false, "%.3f", r -> r.result().latencyMillis(99)),
        new Metric("p99.9 ms at 0.7×", EngineRun.Kind.RATE, false, "%.3f", r -> r.result().latencyMillis(99.9)),
        new Metric("server CPU µs/req at 0.7×", EngineRun.Kind.RATE, false, "%.2f", ServerRun::cpuMicrosPerRequest),
        new Metric("server CPU µs/req at saturation", EngineRun.Kind.PROBE, false, "%.2f", ServerRun::cpuMicrosPerRequest),
        new Metric("peak RSS MiB at saturation", EngineRun.Kind.PROBE, false, "%.1f", EnginesReport::peakRssMib),
        new Metric("p99 ms at the common rate", EngineRun.Kind.COMMON, false, "%.3f", r -> r.result().latencyMillis(99)),
        new Metric("p99.9 ms at the common rate", EngineRun.Kind.COMMON, false, "%.3f", r -> r.result().latencyMillis(99.9)),
        new Metric("server CPU µs/req at the common rate", EngineRun.Kind.COMMON, false, "%.2f", ServerRun::cpuMicrosPerRequest),
        new Metric("peak RSS MiB at the common rate", EngineRun.Kind.COMMON, false, "%.1f", EnginesReport::peakRssMib));

    private static double peakRssMib(ServerRun run) {
        return run.peakRssBytes() < 0 ? Double.NaN : run.peakRssBytes() / MIB;
    }

    /** A row of a scenario's table: the median over the rounds of one figure of one kind of run. */
    private record Metric(String label, EngineRun.Kind kind, boolean higherIsBetter, String format,
                          ToDoubleFunction<ServerRun> value) {
    }

    private final List<EngineRun> runs;
    private final String command;
    private final String method;

    /**
     * @param runs every run, in the order they ran
     * @param command the command line, for the record
     * @param method how the runs were made and with which server commands, as Markdown lines
     */
    EnginesReport(List<EngineRun> runs, String command, String method) {
        this.runs = List.copyOf(runs);
        this.command = command;
        this.method = method;
    }

    boolean pass() {
        return !runs.isEmpty() && runs.stream().allMatch(EngineRun::pass);
    }

    /** Writes {@code index.json}, {@code summary.md} and {@code report.html} into {@code dir}. */
    void write(Path dir) throws IOException {
        Files.writeString(dir.resolve("index.json"), index(dir));
        Files.writeString(dir.resolve("summary.md"), summary());
        List<HtmlReport.Section> sections = new ArrayList<>();
        for (var scenario : byScenario().entrySet()) {
            List<String> servers = serversOf(scenario.getValue());
            List<HtmlReport.Series> series = new ArrayList<>();
            for (EngineRun run : scenario.getValue()) {
                if (run.run() != null && run.kind() == (scenario.getKey().rateRun ? EngineRun.Kind.RATE : EngineRun.Kind.PROBE)) {
                    series.add(new HtmlReport.Series(run.server() + " " + run.round(), servers.indexOf(run.server()),
                        run.run().result()));
                }
            }
            sections.add(new HtmlReport.Section(scenario.getKey().id + ": " + scenario.getKey().title, header(servers),
                table(scenario.getKey(), scenario.getValue()), verdict(scenario.getValue()), series));
        }
        Files.writeString(dir.resolve("report.html"), HtmlReport.sections(heading(), sections));
    }

    private String heading() {
        return "hotpath bench engines: " + (pass() ? "PASS" : "FAIL");
    }

    String summary() {
        StringBuilder md = new StringBuilder("# ").append(heading()).append("\n\n`").append(command).append("`\n\n")
            .append(method);
        for (var scenario : byScenario().entrySet()) {
            List<String> servers = serversOf(scenario.getValue());
            List<String> header = header(servers);
            md.append("\n## ").append(scenario.getKey().id).append(": ").append(scenario.getKey().title).append("\n\n| ")
                .append(String.join(" | ", header)).append(" |\n|---").append("|---:".repeat(header.size() - 1)).append("|\n");
            for (List<String> row : table(scenario.getKey(), scenario.getValue())) {
                md.append("| ").append(String.join(" | ", row)).append(" |\n");
            }
            md.append('\n').append(verdict(scenario.getValue())).append('\n');
        }
        return md.toString();
    }

    private SequencedMap<EngineScenario, List<EngineRun>> byScenario() {
        SequencedMap<EngineScenario, List<EngineRun>> grouped = new LinkedHashMap<>();
        for (EngineRun run : runs) {
            grouped.computeIfAbsent(run.scenario(), s -> new ArrayList<>()).add(run);
        }
        return grouped;
    }

    private static List<String> serversOf(List<EngineRun> runs) {
        return runs.stream().map(EngineRun::server).distinct().toList();
    }

    /** Metric, the servers, and hotpath over its best peer when both ran ({@code hotpath / raw} with one peer). */
    private static List<String> header(List<String> servers) {
        List<String> header = new ArrayList<>(List.of("Metric"));
        header.addAll(servers);
        List<String> peers = servers.stream().filter(s -> !s.equals("hotpath")).toList();
        if (servers.contains("hotpath") && !peers.isEmpty()) {
            header.add("hotpath / " + (peers.size() == 1 ? peers.getFirst() : "best peer"));
        }
        return header;
    }

    private static List<List<String>> table(EngineScenario scenario, List<EngineRun> runs) {
        List<String> servers = serversOf(runs);
        boolean ratio = header(servers).size() > servers.size() + 1;
        List<List<String>> rows = new ArrayList<>();
        for (Metric metric : METRICS) {
            if (metric.kind() == EngineRun.Kind.RATE && !scenario.rateRun
                || metric.kind() == EngineRun.Kind.COMMON && runs.stream().noneMatch(r -> r.kind() == EngineRun.Kind.COMMON)) {
                continue;
            }
            List<String> row = new ArrayList<>(List.of(metric.label()));
            double hotpath = Double.NaN;
            double bestPeer = Double.NaN;
            for (String server : servers) {
                double value = median(runs, server, metric);
                row.add(Double.isNaN(value) ? "—" : String.format(Locale.ROOT, metric.format(), value));
                if (server.equals("hotpath")) {
                    hotpath = value;
                } else if (!Double.isNaN(value) && (Double.isNaN(bestPeer)
                    || (metric.higherIsBetter() ? value > bestPeer : value < bestPeer))) {
                    bestPeer = value;
                }
            }
            if (ratio) {
                double r = hotpath / bestPeer;
                row.add(Double.isNaN(r) || Double.isInfinite(r) ? "—" : String.format(Locale.ROOT, "%.3f", r));
            }
            rows.add(row);
        }
        return rows;
    }

    /** The median over the rounds of {@code metric} for {@code server}, from the runs that measured it; NaN if none did. */
    private static double median(List<EngineRun> runs, String server, Metric metric) {
        double[] values = runs.stream().filter(r -> r.server().equals(server) && r.kind() == metric.kind() && r.run() != null)
            .mapToDouble(r -> metric.value().applyAsDouble(r.run())).filter(v -> !Double.isNaN(v)).toArray();
        return values.length == 0 ? Double.NaN : CompareCommand.median(values);
    }

    private static String verdict(List<EngineRun> runs) {
        List<String> failures = runs.stream().filter(r -> !r.pass())
            .map(r -> r.name() + ": " + String.join("; ", r.reasons())).toList();
        return failures.isEmpty() ? "PASS: every run passed (" + runs.size() + " runs)."
            : "FAIL, the figures above do not count: " + String.join(" | ", failures);
    }

    /** Every run with its figures; a figure nobody measured is null. */
    private String index(Path dir) {
        StringBuilder json = new StringBuilder("{\n  \"command\": ").append(quote(command))
            .append(",\n  \"commit\": ").append(quote(Provenance.commit()))
            .append(",\n  \"machine\": ").append(quote(Provenance.machine()))
            .append(",\n  \"verdict\": ").append(quote(pass() ? "PASS" : "FAIL"))
            .append(",\n  \"runs\": [");
        for (int i = 0; i < runs.size(); i++) {
            EngineRun r = runs.get(i);
            ServerRun run = r.run();
            json.append(i == 0 ? "\n" : ",\n").append("    {\"scenario\": ").append(quote(r.scenario().id))
                .append(", \"server\": ").append(quote(r.server())).append(", \"round\": ").append(r.round())
                .append(", \"kind\": ").append(quote(r.kind().label()))
                .append(", \"target_rps\": ").append(run == null ? "null" : number(run.result().config().rps()))
                .append(", \"rps\": ").append(run == null ? "null" : number(run.result().rps()))
                .append(", \"p50_ms\": ").append(run == null ? "null" : number(run.result().latencyMillis(50)))
                .append(", \"p99_ms\": ").append(run == null ? "null" : number(run.result().latencyMillis(99)))
                .append(", \"p999_ms\": ").append(run == null ? "null" : number(run.result().latencyMillis(99.9)))
                .append(", \"cpu_us_per_request\": ").append(run == null ? "null" : number(run.cpuMicrosPerRequest()))
                .append(", \"peak_rss_bytes\": ").append(run == null || run.peakRssBytes() < 0 ? "null" : run.peakRssBytes())
                .append(", \"errors\": ").append(run == null ? "null" : r.errors())
                .append(", \"verdict\": ").append(quote(r.pass() ? "PASS" : "FAIL"))
                .append(", \"reasons\": [").append(String.join(", ", r.reasons().stream().map(EnginesReport::quote).toList()))
                .append("], \"dir\": ").append(run == null ? "null" : quote(dir.relativize(run.dir()).toString()))
                .append(", \"command\": ").append(quote(r.command())).append('}');
        }
        return json.append("\n  ]\n}\n").toString();
    }

    private static String number(double value) {
        return Double.isNaN(value) || Double.isInfinite(value) ? "null" : Double.toString(value);
    }

    /** {@code s} as a JSON string, escaped by jackson-core's encoder (quotes, backslashes, controls). */
    private static String quote(String s) {
        return '"' + new String(JsonStringEncoder.getInstance().quoteAsString(s)) + '"';
    }
}
