package dev.hotpath.cli;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.hotpath.loadgen.CapacitySearch;
import dev.hotpath.loadgen.LoadRun;
import dev.hotpath.loadgen.MeasuredPeriod;
import dev.hotpath.loadgen.Mode;
import dev.hotpath.loadgen.Progress;
import dev.hotpath.loadgen.RunConfig;
import dev.hotpath.loadgen.RunResult;
import dev.hotpath.loadgen.Tally;
import dev.hotpath.loadgen.TimeScale;
import dev.hotpath.loadgen.UsersModel;
import dev.hotpath.loadgen.Verdict;
import dev.hotpath.loadgen.scenario.SocialScenario;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code hotpath bench social --score}: the challenge's score of a running server, for each mix. Runs
 * the {@link CapacitySearch} with users-mode runs of the social scenario (the SLO of
 * {@link LoadOptions#usersConfig}); a level above {@code --max-connections} users runs time-scaled
 * ({@link TimeScale}), and every line and file says so. With {@code --server-pid} it first measures the
 * server's memory per held connection and reports, beside each score, the resident set extrapolated to
 * that many connections, marked as extrapolated. Files: {@code score.md}, {@code score.json} and one
 * run directory per run, under {@code --results}/UTC stamp{@code -social-score}/.
 */
final class SocialScore {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
    /** The share of its users' requests a time-scaled run must send ({@link #keptTheRate}). */
    private static final double MIN_RATE_KEPT = 0.95;
    /** The memory probe's hold: every user's first request (after at most 5 s) falls inside it. */
    private static final Duration PROBE_HOLD = Duration.ofSeconds(6);

    private final LoadOptions load;
    private final ScoreOptions options;
    private final String host;
    private final int port;
    private final PrintWriter out;
    private final boolean console;

    SocialScore(LoadOptions load, ScoreOptions options, String host, int port, PrintWriter out, boolean console) {
        this.load = load;
        this.options = options;
        this.host = host;
        this.port = port;
        this.out = out;
        this.console = console;
    }

    /** What the probe found: the resident set with half the connections held, then with all of them. */
    record ConnectionMemory(int connections, long halfRssBytes, long fullRssBytes, String problem) {
        /** The slope between the two: what one more held connection costs. */
        double bytesPerConnection() {
            return (double) (fullRssBytes - halfRssBytes) / (connections - connections / 2);
        }

        /** The resident set at {@code n} connections, extrapolated along the slope from the full probe. */
        long extrapolatedRssBytes(int n) {
            return fullRssBytes + Math.round(bytesPerConnection() * (n - connections));
        }

        boolean measured() {
            return problem == null;
        }
    }

    /** One mix's search, as it ended. */
    private record MixScore(SocialScenario.Mix mix, CapacitySearch.Score score) {
    }

    /** Exit code: 0 when every mix scored above zero, 1 otherwise. */
    int run() throws IOException {
        Path dir = Files.createDirectories(load.results.resolve(STAMP.format(Instant.now()) + "-social-score"));
        ConnectionMemory memory = options.serverPid == null ? null : probeMemory(dir.resolve("memory-probe"));
        List<MixScore> scores = new ArrayList<>();
        List<SocialScenario.Mix> mixes = load.mix() == null ? List.of(SocialScenario.Mix.values()) : List.of(load.mix());
        for (SocialScenario.Mix mix : mixes) {
            say("== " + mix.label() + " mix: warm-up " + options.warmupUsers + " users for " + options.warmupHold.toSeconds()
                + " s (unscored), then from " + options.startUsers + " users doubling, bisection to " + options.resolution
                + ", a " + options.hold.toSeconds() + " s hold (step holds " + options.stepHold.toSeconds() + " s)");
            CapacitySearch.Score score = new CapacitySearch(options.plan())
                .run(step -> trial(mix, step, dir.resolve(mix.label())), record -> say(record.outcome().detail()));
            scores.add(new MixScore(mix, score));
            say("== " + mix.label() + " score: " + scoreText(score, memory));
        }
        String report = report(scores, memory);
        Files.writeString(dir.resolve("score.md"), report);
        writeJson(dir.resolve("score.json"), scores, memory);
        out.println();
        out.print(report);
        out.println("(" + dir + ")");
        out.flush();
        return scores.stream().allMatch(s -> s.score().users() > 0) ? 0 : 1;
    }

    private CapacitySearch.Outcome trial(SocialScenario.Mix mix, CapacitySearch.Step step, Path runs) throws IOException {
        TimeScale scale = TimeScale.of(step.users(), options.maxConnections);
        String label = mix.label() + " " + step.phase().label() + " " + scale.describe();
        RunConfig config = load.usersConfig(host, port, scale.connections(), step.hold());
        RssAt rss = new RssAt(options.serverPid);
        RunResult result = LoadRun.run(config, load.socialScenario(mix, scale.thinkScale()), progress(label), rss);
        Verdict verdict = result.verdict().with(scale.scaled()
            ? keptTheRate(mix, scale, config, result.wholeSeconds()).stream().toList() : List.of());
        Path saved = BenchCommand.save(result, verdict, Files.createDirectories(runs), load.command());
        boolean pass = verdict.pass();
        String line = String.format(Locale.ROOT, "%s: %s, %,d requests, %,.0f req/s, p95 %.1f ms, p99 %.1f ms, failed %.3f%%%s (%s)",
            label, pass ? "PASS" : "FAIL", result.measured().attempted(), result.rps(),
            result.latencyMillis(95), result.latencyMillis(99), 100 * result.errorRate(),
            rss.bytes < 0 ? "" : String.format(Locale.ROOT, ", server RSS %,d MiB with %,d connections held", rss.bytes >> 20, scale.connections()),
            saved.getFileName());
        return new CapacitySearch.Outcome(pass, pass ? line : line + ": " + String.join("; ", verdict.reasons()));
    }

    /**
     * A time-scaled run stands for its users only while the server keeps up with their rate. Past
     * that, each connection waits for its answer instead of thinking, and the run turns into a closed
     * loop of {@code connections} clients whose latency is bounded by connections over throughput,
     * however many users it claims: a saturated server would pass any level. So the server must have
     * answered, over the hold at the peak, at least {@link #MIN_RATE_KEPT} of the requests its users send
     * there when answered at once ({@link SocialScenario#steadyRate}); latency counts against it k times
     * more than against real users (each connection thinks k times less), which only makes the score err
     * low. Only the hold counts: the ramps ask less, and counted in they dilute a shortfall at the peak
     * (a write-heavy search passed 30-s steps 10% above what the server served, whose 5-minute holds then
     * failed). Short holds get three standard deviations of a Poisson count more of slack, so that chance
     * alone never fails one (at the 500,000 answers of a 30-s step at the peak, 0.4%).
     *
     * @param seconds the run's whole seconds from its start: ramp-up, hold, ramp-down
     * @return why the run fails, or empty when it kept the rate
     */
    static Optional<String> keptTheRate(SocialScenario.Mix mix, TimeScale scale, RunConfig config,
                                        List<Tally.Second> seconds) {
        int from = (int) config.users().rampUp().toSeconds();
        int to = Math.min(seconds.size(), from + (int) config.duration().toSeconds());
        long answered = 0;
        for (Tally.Second second : seconds.subList(Math.min(from, to), to)) {
            answered += second.answers();
        }
        double expected = SocialScenario.steadyRate(mix, scale.connections(), scale.thinkScale()) * (to - from);
        if (to > from && answered >= MIN_RATE_KEPT * expected - 3 * Math.sqrt(expected)) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "the server fell behind the users' rate at the peak: %,d answers in the %d s"
            + " hold, %.1f%% of the %,.0f its users ask (at least %.0f%% needed for a time-scaled run to stand for"
            + " them)", answered, to - from, expected <= 0 ? 0 : 100 * answered / expected, expected, 100 * MIN_RATE_KEPT));
    }

    /**
     * Memory per held connection, as a slope of the resident set: the server's RSS at the end of a short
     * run holding half of {@code --max-connections}, then of one holding all of them (each user makes its
     * first request or two); what the second adds over the first, per added connection. The first run
     * also warms what any run warms (code, caches, pools), so the slope is mostly the connections' own.
     * What it does not see: memory a runtime had already reserved and touched before (a JVM's heap does
     * not shrink, so heap a connection reuses is not counted twice, nor at all if the heap was touched
     * whole at start), and the kernel's socket buffers, which are not in any process's RSS.
     */
    private ConnectionMemory probeMemory(Path runs) throws IOException {
        int full = options.maxConnections;
        long[] rss = new long[2];
        String problem = null;
        for (int i = 0; i < 2 && problem == null; i++) {
            int connections = i == 0 ? full / 2 : full;
            // No bound on the generator's lateness: the probe measures memory, not latency, and as the
            // first run of a fresh generator it meets that generator's JIT.
            RunConfig config = new RunConfig(host, port, Mode.USERS, 0, connections, 1, 0, Duration.ZERO, PROBE_HOLD,
                Duration.ofSeconds(10), 1, null, null, null, PROBE_HOLD.toMillis(),
                new UsersModel(Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO));
            RssAt at = new RssAt(options.serverPid);
            String label = "memory probe, " + connections + " connections";
            RunResult result = LoadRun.run(config, load.socialScenario(SocialScenario.Mix.REALISTIC, 1), progress(label), at);
            BenchCommand.save(result, Files.createDirectories(runs), load.command());
            rss[i] = at.bytes;
            if (!result.verdict().pass()) {
                problem = label + " failed: " + String.join("; ", result.verdict().reasons());
            } else if (at.bytes < 0) {
                problem = "no resident set for process " + options.serverPid + " (gone, or not Linux)";
            } else if (i == 1 && at.bytes <= rss[0]) {
                problem = String.format(Locale.ROOT, "the resident set did not grow from %,d to %,d connections (%,d then %,d bytes): "
                    + "too few connections to measure", full / 2, full, rss[0], at.bytes);
            }
            say(String.format(Locale.ROOT, "%s: server RSS %s", label, at.bytes < 0 ? "unknown" : String.format(Locale.ROOT, "%,d MiB", at.bytes >> 20)));
        }
        ConnectionMemory memory = new ConnectionMemory(full, rss[0], rss[1], problem);
        say(memory.measured() ? String.format(Locale.ROOT, "memory per held connection: %,.0f bytes (measured: RSS slope, %,d vs %,d connections)",
            memory.bytesPerConnection(), full, full / 2) : "memory per held connection not measured: " + problem);
        return memory;
    }

    private String scoreText(CapacitySearch.Score score, ConnectionMemory memory) {
        if (score.users() == 0) {
            return "no level passed its hold";
        }
        TimeScale scale = TimeScale.of(score.users(), options.maxConnections);
        StringBuilder text = new StringBuilder(score.capped() ? "at least " : "").append(scale.describe());
        CapacitySearch.Record hold = score.runs().getLast();
        text.append(" held (").append(hold.outcome().detail()).append(')');
        if (memory != null && memory.measured()) {
            text.append(String.format(Locale.ROOT, "; server RSS extrapolated to %,d connections: %,d MiB (extrapolated from the probe's "
                + "%,.0f bytes per connection, not measured)", score.users(), memory.extrapolatedRssBytes(score.users()) >> 20,
                memory.bytesPerConnection()));
        }
        return text.toString();
    }

    private String report(List<MixScore> scores, ConnectionMemory memory) {
        StringBuilder md = new StringBuilder("# Social score\n\n`").append(load.command()).append("`, commit ")
            .append(Provenance.commit()).append(", ").append(Provenance.machine()).append("\n\n");
        md.append("SLO over each whole run, ramps included: p95 < 500 ms, p99 < 1 s, under 1% failed. Levels above ")
            .append(String.format(Locale.ROOT, "%,d", options.maxConnections))
            .append(" users run time-scaled: the rate of that many users over fewer connections, think times divided.\n\n");
        if (memory != null) {
            md.append(memory.measured() ? String.format(Locale.ROOT, "Memory per held connection (measured): %,.0f bytes, from the server's "
                + "RSS holding %,d connections (%,d MiB) and %,d (%,d MiB).%n%n", memory.bytesPerConnection(),
                memory.connections() / 2, memory.halfRssBytes() >> 20, memory.connections(), memory.fullRssBytes() >> 20)
                : "Memory per held connection not measured: " + memory.problem() + "\n\n");
        }
        for (MixScore s : scores) {
            md.append("## ").append(s.mix().label()).append(" mix: ").append(scoreText(s.score(), memory)).append("\n\n");
            for (CapacitySearch.Record run : s.score().runs()) {
                md.append("- ").append(run.outcome().detail()).append('\n');
            }
            md.append('\n');
        }
        return md.toString();
    }

    private void writeJson(Path file, List<MixScore> scores, ConnectionMemory memory) throws IOException {
        try (OutputStream stream = Files.newOutputStream(file);
             JsonGenerator json = new JsonFactory().createGenerator(stream, JsonEncoding.UTF8).useDefaultPrettyPrinter()) {
            json.writeStartObject();
            if (memory != null && memory.measured()) {
                json.writeObjectFieldStart("memory_per_connection_measured");
                json.writeNumberField("bytes", Math.round(memory.bytesPerConnection()));
                json.writeNumberField("rss_bytes_half", memory.halfRssBytes());
                json.writeNumberField("rss_bytes_full", memory.fullRssBytes());
                json.writeNumberField("connections_full", memory.connections());
                json.writeEndObject();
            }
            json.writeArrayFieldStart("mixes");
            for (MixScore s : scores) {
                json.writeStartObject();
                json.writeStringField("mix", s.mix().label());
                json.writeNumberField("users", s.score().users());
                json.writeBooleanField("at_least", s.score().capped());
                if (s.score().users() > 0) {
                    json.writeStringField("held", TimeScale.of(s.score().users(), options.maxConnections).describe());
                    if (memory != null && memory.measured()) {
                        json.writeNumberField("rss_bytes_extrapolated", memory.extrapolatedRssBytes(s.score().users()));
                    }
                }
                json.writeArrayFieldStart("runs");
                for (CapacitySearch.Record run : s.score().runs()) {
                    json.writeStartObject();
                    json.writeStringField("phase", run.step().phase().label());
                    json.writeNumberField("users", run.step().users());
                    json.writeNumberField("hold_seconds", run.step().hold().toSeconds());
                    json.writeBooleanField("pass", run.outcome().pass());
                    json.writeStringField("detail", run.outcome().detail());
                    json.writeEndObject();
                }
                json.writeEndArray();
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        }
    }

    private Progress progress(String label) {
        return console ? Progress.line(System.out, "[" + label + "] ") : Progress.NONE;
    }

    private void say(String line) {
        if (console) {
            System.out.print("\r\033[K");
        }
        out.println(line);
        out.flush();
    }

    /** Samples the server's resident set when a run's period ends (every connection still open). */
    private static final class RssAt implements MeasuredPeriod {
        private final Long pid;
        long bytes = -1;

        RssAt(Long pid) {
            this.pid = pid;
        }

        @Override
        public void started() {
        }

        @Override
        public void ended() {
            if (pid != null) {
                bytes = ProcStatus.rssBytes(pid);
            }
        }
    }
}
