package dev.hotpath.loadgen;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes a run's files into {@code results/<UTC stamp>/}: {@code result.json} (everything counted, the
 * verdict, the machine, JDK, commit and command), {@code summary.md}, {@code latency.hgrm} (the
 * HdrHistogram percentile distribution, in milliseconds) and {@code report.html} (see {@link HtmlReport}).
 */
public final class ResultWriter {
    private static final double[] PERCENTILES = {50, 90, 95, 99, 99.9, 99.99};
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    /** Facts about where the run happened, recorded with it. */
    public record Provenance(String command, String commit, String machine) {
    }

    private ResultWriter() {
    }

    /** A new directory for a run under {@code root}, named by its UTC start. */
    public static Path directoryFor(Path root, RunResult result) throws IOException {
        Path dir = root.resolve(STAMP.format(result.startedAt()));
        for (int i = 2; Files.exists(dir); i++) {
            dir = root.resolve(STAMP.format(result.startedAt()) + "-" + i);
        }
        return Files.createDirectories(dir);
    }

    public static void write(Path dir, RunResult result, Provenance provenance) throws IOException {
        write(dir, result, result.verdict(), provenance);
    }

    /** As {@link #write(Path, RunResult, Provenance)}, with a verdict the caller judged more strictly ({@link Verdict#with}). */
    public static void write(Path dir, RunResult result, Verdict verdict, Provenance provenance) throws IOException {
        try (OutputStream out = Files.newOutputStream(dir.resolve("result.json"))) {
            writeJson(out, result, verdict, provenance);
        }
        Files.writeString(dir.resolve("summary.md"), summary(result, verdict, provenance));
        try (PrintStream out = new PrintStream(Files.newOutputStream(dir.resolve("latency.hgrm")), false, StandardCharsets.UTF_8)) {
            result.measured().latency().writePercentileDistribution(out);
        }
        Files.writeString(dir.resolve("report.html"), HtmlReport.render(result, verdict, provenance));
    }

    private static void writeJson(OutputStream out, RunResult r, Verdict verdict, Provenance provenance) throws IOException {
        RunConfig c = r.config();
        Tally m = r.measured();
        try (JsonGenerator json = new JsonFactory().createGenerator(out, JsonEncoding.UTF8).useDefaultPrettyPrinter()) {
            json.writeStartObject();
            json.writeStringField("verdict", verdict.pass() ? "PASS" : "FAIL");
            json.writeArrayFieldStart("reasons");
            for (String reason : verdict.reasons()) {
                json.writeString(reason);
            }
            json.writeEndArray();
            json.writeStringField("scenario", r.scenario());
            json.writeStringField("mode", c.mode().name().toLowerCase(java.util.Locale.ROOT));
            json.writeStringField("target", c.host() + ":" + c.port());
            json.writeStringField("started_at", r.startedAt().toString());
            json.writeNumberField("target_rps", c.rps());
            json.writeNumberField("connections", c.connections());
            json.writeNumberField("pipeline", c.pipeline());
            json.writeNumberField("warmup_seconds", c.warmup().toMillis() / 1000.0);
            json.writeNumberField("duration_seconds", r.measuredSeconds());
            json.writeNumberField("planned", r.planned());
            json.writeNumberField("attempted", m.attempted());
            json.writeNumberField("ok", m.ok());
            json.writeNumberField("dropped", m.dropped());
            json.writeNumberField("unexpected_status", m.unexpectedStatus());
            json.writeNumberField("mismatches", m.mismatches());
            json.writeObjectFieldStart("errors");
            for (ErrorKind kind : ErrorKind.values()) {
                json.writeNumberField(kind.key(), m.errors(kind));
            }
            json.writeEndObject();
            json.writeNumberField("rps", r.rps());
            json.writeObjectFieldStart("latency_ms");
            percentiles(json, m.latency());
            json.writeEndObject();
            json.writeObjectFieldStart("send_lag_ms");
            percentiles(json, m.sendLag());
            json.writeEndObject();
            json.writeObjectFieldStart("generator_lag_ms");
            percentiles(json, m.generatorLag());
            json.writeEndObject();
            json.writeObjectFieldStart("generator_gc_pauses");
            json.writeNumberField("count", r.generatorPauses().count());
            json.writeNumberField("longest_ms", r.generatorPauses().longestMillis());
            json.writeNumberField("total_ms", r.generatorPauses().totalMillis());
            json.writeEndObject();
            json.writeObjectFieldStart("warmup");
            json.writeNumberField("attempted", r.warmup().attempted());
            json.writeNumberField("ok", r.warmup().ok());
            json.writeNumberField("problems", r.warmup().problems() + r.warmup().dropped());
            json.writeEndObject();
            if (r.verification() != null) {
                Tally v = r.verification();
                json.writeObjectFieldStart("verification");
                json.writeNumberField("checked", v.attempted());
                json.writeNumberField("ok", v.ok());
                json.writeNumberField("problems", v.problems());
                json.writeStringField("first_error", v.firstError());
                json.writeEndObject();
            }
            if (r.endToEnd() != null) {
                EndToEnd e = r.endToEnd();
                json.writeObjectFieldStart("end_to_end");
                json.writeNumberField("drain_deadline_seconds", e.deadline().toMillis() / 1000.0);
                json.writeNumberField("acknowledged", e.acknowledged());
                json.writeNumberField("found", e.found());
                json.writeNumberField("missing", e.missing());
                json.writeStringField("first_missing", e.firstMissing());
                json.writeNumberField("passes", e.passes());
                json.writeNumberField("rereads", e.rereads());
                json.writeNumberField("resolution_ms", e.resolutionMillis());
                json.writeObjectFieldStart("lag_ms");
                json.writeNumberField("p50", e.lag().millisAt(50));
                json.writeNumberField("p99", e.lag().millisAt(99));
                json.writeNumberField("max", e.lag().maxMillis());
                json.writeEndObject();
                json.writeEndObject();
            }
            json.writeStringField("first_error", r.firstError());
            json.writeArrayFieldStart("answers_per_second");
            for (Tally.Second second : r.wholeSeconds()) {
                json.writeNumber(second.answers());
            }
            json.writeEndArray();
            json.writeArrayFieldStart("p99_ms_per_second");
            for (Tally.Second second : r.wholeSeconds()) {
                if (Double.isNaN(second.p99Millis())) {
                    json.writeNull();
                } else {
                    json.writeNumber(second.p99Millis());
                }
            }
            json.writeEndArray();
            json.writeStringField("machine", provenance.machine());
            json.writeStringField("jdk", Runtime.version().toString());
            json.writeStringField("transport", r.transport());
            json.writeStringField("commit", provenance.commit());
            json.writeStringField("command", provenance.command());
            json.writeEndObject();
        }
    }

    private static void percentiles(JsonGenerator json, Latency latency) throws IOException {
        for (double p : PERCENTILES) {
            json.writeNumberField("p" + trim(p), latency.millisAt(p));
        }
        json.writeNumberField("max", latency.maxMillis());
    }

    static String trim(double p) {
        return p == Math.rint(p) ? Long.toString((long) p) : Double.toString(p);
    }

    /** One line of a run's summary table; {@code code} when the value is a command to be shown as such. */
    record Row(String name, String value, boolean code) {
        Row(String name, String value) {
            this(name, value, false);
        }
    }

    /** The summary table of a run: what summary.md and report.html show, in this order. */
    static List<Row> summaryRows(RunResult r, Provenance provenance) {
        Tally m = r.measured();
        List<Row> rows = new ArrayList<>();
        rows.add(new Row("Target", r.config().host() + ":" + r.config().port()));
        rows.add(new Row("Connections × pipeline", r.config().connections() + " × " + r.config().pipeline()));
        if (r.config().mode() == Mode.RATE) {
            rows.add(new Row("Target rate", String.format(Locale.ROOT, "%,.1f req/s", r.config().rps())));
            rows.add(new Row("Planned", String.format(Locale.ROOT, "%,d", r.planned())));
        }
        rows.add(new Row("Attempted / ok", String.format(Locale.ROOT, "%,d / %,d", m.attempted(), m.ok())));
        rows.add(new Row("Dropped, errors, unexpected, mismatches", m.dropped() + ", " + m.errorCount() + ", "
            + m.unexpectedStatus() + ", " + m.mismatches()));
        rows.add(new Row("Throughput", String.format(Locale.ROOT, "%,.1f req/s over %.1f s", r.rps(), r.measuredSeconds())));
        StringBuilder latency = new StringBuilder();
        for (double p : List.of(50.0, 90.0, 99.0, 99.9)) {
            latency.append("p").append(trim(p)).append(' ').append(String.format(Locale.ROOT, "%.3f", r.latencyMillis(p))).append(" ms, ");
        }
        rows.add(new Row("Latency", latency + String.format(Locale.ROOT, "max %.3f ms", m.latency().maxMillis())));
        GeneratorPauses.Summary pauses = r.generatorPauses();
        rows.add(new Row("Generator GC pauses", pauses.count() == 0 ? "none in the measured period"
            : String.format(Locale.ROOT, "%d, longest %d ms, %d ms in all (the latencies above include them)", pauses.count(),
                pauses.longestMillis(), pauses.totalMillis())));
        EndToEnd e = r.endToEnd();
        if (e != null) {
            rows.add(new Row("Found after the run", String.format(Locale.ROOT, "%,d of %,d acknowledged in %d passes (%,d re-reads)%s",
                e.found(), e.acknowledged(), e.passes(), e.rereads(), e.missing() == 0 ? ""
                    : String.format(Locale.ROOT, "; %,d missing at the %.1f s deadline, first %s", e.missing(),
                        e.deadline().toMillis() / 1000.0, e.firstMissing()))));
            rows.add(new Row("End-to-end lag (acknowledged → found)", String.format(Locale.ROOT,
                "p50 %.1f ms, p99 %.1f ms, max %.1f ms (upper bounds; re-read resolution %.1f ms)",
                e.lag().millisAt(50), e.lag().millisAt(99), e.lag().maxMillis(), e.resolutionMillis())));
        } else if (r.verification() != null) {
            rows.add(new Row("Verified after the run",
                String.format(Locale.ROOT, "%,d of %,d", r.verification().ok(), r.verification().attempted())));
        }
        rows.add(new Row("First error", r.firstError() == null ? "none" : r.firstError()));
        rows.add(new Row("Machine", provenance.machine() + ", JDK " + Runtime.version() + ", " + r.transport()));
        rows.add(new Row("Commit", provenance.commit()));
        rows.add(new Row("Command", provenance.command(), true));
        return rows;
    }

    /** The verdict's heading: PASS or FAIL, the scenario and the mode. */
    static String heading(RunResult r, Verdict verdict) {
        return (verdict.pass() ? "PASS" : "FAIL") + ": " + r.scenario() + ", "
            + r.config().mode().name().toLowerCase(java.util.Locale.ROOT);
    }

    static String summary(RunResult r, Verdict verdict, Provenance provenance) {
        StringBuilder md = new StringBuilder();
        md.append("# ").append(heading(r, verdict)).append("\n\n");
        for (String reason : verdict.reasons()) {
            md.append("- ").append(reason).append('\n');
        }
        md.append(verdict.reasons().isEmpty() ? "" : "\n");
        md.append("| | |\n|---|---|\n");
        for (Row row : summaryRows(r, provenance)) {
            String value = row.code() ? "`" + row.value() + "`" : row.value().replace("|", "\\|");
            md.append("| ").append(row.name()).append(" | ").append(value).append(" |\n");
        }
        return md.toString();
    }
}
