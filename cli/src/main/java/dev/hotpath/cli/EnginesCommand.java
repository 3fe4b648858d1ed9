package dev.hotpath.cli;

import dev.hotpath.loadgen.Mode;
import dev.hotpath.loadgen.RunConfig;
import dev.hotpath.loadgen.scenario.UserReadScenario;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code hotpath bench engines}: the engine comparison suite ({@code docs/ENGINES.md}). Per scenario and
 * round, each server in turn (A B C D) is started fresh (free port, fresh data directory, pinned to core
 * 0) for a saturation probe (closed loop, 64 connections, warm-up then measured), stopped, and started
 * fresh again for a constant-rate run at {@value #RATE_SHARE}× the rate that server's probe sustained
 * (open loop, latency from the scheduled time); with {@code --common-rate}, once more at that one rate
 * for every server it is within 0.7× of, because each server's own 0.7× puts the faster ones under more
 * load, on both cores, than the slower. Each run records req/s, latency, the server's CPU per
 * request and its peak RSS; the tables give medians over the rounds. Exit 0 only when every run passed,
 * 1 otherwise (the tables are written either way), 2 for an invalid command line.
 *
 * <p>Cost: about 45 s per server, scenario and round at the default durations; the full suite (5
 * scenarios, 4 or 5 servers, 3 rounds) takes about 45 minutes.
 */
@Command(name = "engines", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Compare hotpath with the peers on S1-S4 and the 64-deep ping: saturation, then 0.7x of it, on fresh servers.",
        "Pin the generator with 'taskset -c 1 ./hotpath bench engines'; the servers run on core 0."})
final class EnginesCommand implements Callable<Integer> {
    /** The constant-rate run's share of the server's measured saturation. */
    static final double RATE_SHARE = 0.7;
    private static final int CONNECTIONS = 64;
    /**
     * Arrivals a connection may hold while its answer is late, in the constant-rate run. A server that
     * stalls for tens of milliseconds (a GC pause, a compilation on its one core) would overflow the
     * harness's default of 64 at these rates and fail the run with drops; with this depth the stall is
     * measured instead, as latency from each arrival's scheduled time, which is what the p99 column is for.
     */
    private static final int RATE_QUEUE = 4096;

    @Spec
    private CommandSpec spec;

    @Option(names = "--scenarios", split = ",", defaultValue = "s1,s2,s3,s4,p64",
        description = "Scenarios, in order: s1, s2, s3, s4, p64 (default: ${DEFAULT-VALUE}).")
    private List<String> scenarios;

    @Option(names = "--servers", split = ",", defaultValue = "hotpath,netty,vertx,helidon,raw",
        description = "Servers, in this order in every round; each runs the scenarios it has (netty s1-s3, raw p64 only) "
            + "(default: ${DEFAULT-VALUE}).")
    private List<String> servers;

    @Option(names = "--server", paramLabel = "NAME=CMD", description = "The command that starts server NAME instead of its default, "
        + "with {port}, and {data} (a fresh directory), {store} (the scenario's store flags) and {jvm} (flags for its JVM, "
        + "see --aot) where it needs them. {jvm} holds only the cache: a JVM command must carry the flags every default "
        + "command has itself (see the summary's commands), or it runs without the flags of jvm.options the others have.")
    private Map<String, String> overrides = new LinkedHashMap<>();

    @Option(names = "--peers-jar", description = "The bench module's jar with the peers (default: bench/target/benchmarks.jar "
        + "of this build's repository).")
    private Path peersJar;

    @Option(names = "--quick", description = "One round and short runs (2 s warm-up, 3 s measured): a check, not a result.")
    private boolean quick;

    @Option(names = "--rounds", description = "Rounds (default: 3, or 1 with --quick).")
    private Integer rounds;

    @Option(names = "--warmup", converter = Converters.Span.class,
        description = "Warm-up before every measured period (default: 10s, or 2s with --quick).")
    private Duration warmup;

    @Option(names = "--duration", converter = Converters.Span.class,
        description = "Measured period of every run (default: 10s, or 3s with --quick).")
    private Duration duration;

    @Option(names = "--common-rate", paramLabel = "RPS", description = "Also run every server of a rate scenario at this "
        + "one rate (open loop, on a fresh server), where it is at most " + RATE_SHARE + "x of that server's saturation: the "
        + "same load for all, so latency and CPU compare at equal work (default: none).")
    private Double commonRate;

    @Option(names = "--aot", description = "Give every JVM server its own ahead-of-time cache: per scenario and server, "
        + "a training probe (" + AotCaches.TRAINING_SECONDS + " s, not counted) on a server started with -XX:AOTCacheOutput, "
        + "then every run with -XX:AOTCache. For the default commands, and --server commands where they hold {jvm}.")
    private boolean aot;

    @Option(names = "--token", defaultValue = UserReadScenario.DEFAULT_TOKEN,
        description = "The bearer token the servers accept (default: ${DEFAULT-VALUE}).")
    private String token;

    @Option(names = "--ready-timeout", defaultValue = "60s", converter = Converters.Span.class,
        description = "How long a server may take to accept connections (default: ${DEFAULT-VALUE}).")
    private Duration readyTimeout;

    @Option(names = "--results", defaultValue = "results", description = "Where the suite's directory goes (default: ${DEFAULT-VALUE}).")
    private Path results;

    @Override
    public Integer call() throws IOException {
        List<EngineScenario> chosen = scenarios();
        EngineServers commands = servers(chosen);
        int roundCount = rounds != null ? rounds : quick ? 1 : 3;
        if (roundCount < 1 || roundCount > 100) {
            throw new ParameterException(spec.commandLine(), "--rounds must be 1..100");
        }
        Duration warm = warmup != null ? warmup : Duration.ofSeconds(quick ? 2 : 10);
        Duration measured = duration != null ? duration : Duration.ofSeconds(quick ? 3 : 10);
        if (warm.isNegative() || measured.isNegative() || measured.isZero()) {
            throw new ParameterException(spec.commandLine(), "--warmup must not be negative and --duration must be positive");
        }
        if (commonRate != null && !(commonRate > 0)) {
            throw new ParameterException(spec.commandLine(), "--common-rate must be a positive rate, got " + commonRate);
        }
        Path dir = CompareCommand.stampedDirectory(results, "engines");
        PrintWriter out = spec.commandLine().getOut();
        out.println("| Scenario | Server | Round | Run | req/s | p99 ms | server CPU µs/req | peak RSS MiB | Verdict |");
        List<EngineRun> runs = new ArrayList<>();
        for (EngineScenario scenario : chosen) {
            Map<String, String> jvmFlags = aot ? trainCaches(out, dir, commands, scenario) : Map.of();
            for (int round = 1; round <= roundCount; round++) {
                for (String server : servers) {
                    if (!EngineServers.runs(server, scenario)) {
                        continue;
                    }
                    String command = commands.command(server, scenario, jvmFlags.getOrDefault(server, ""));
                    RunConfig probe = saturation(scenario, warm, measured);
                    EngineRun saturation = run(out, dir,
                        new EngineRun(scenario, server, round, EngineRun.Kind.PROBE, command, null, null), probe);
                    runs.add(saturation);
                    if (scenario.rateRun) {
                        EngineRun rate = new EngineRun(scenario, server, round, EngineRun.Kind.RATE, command, null, null);
                        double sustained = saturation.run() == null ? 0 : saturation.run().result().rps();
                        runs.add(sustained > 0 ? run(out, dir, rate, openLoop(RATE_SHARE * sustained, warm, measured))
                            : failed(out, rate, "not run: the saturation probe sustained no rate"));
                        if (commonRate != null && commonRate <= RATE_SHARE * sustained) {
                            runs.add(run(out, dir, new EngineRun(scenario, server, round, EngineRun.Kind.COMMON, command, null, null),
                                openLoop(commonRate, warm, measured)));
                        } else if (commonRate != null) {
                            // Past 0.7x of its saturation a server is near its knee: a latency there says where the
                            // knee lies, not how the servers compare, so the run is left out rather than failed.
                            out.println(String.format(Locale.ROOT, "| %s | %s | %d | common | | | | | not run: %s |", scenario.id,
                                server, round, sustained > 0 ? String.format(Locale.ROOT, "%,.0f req/s is above %.1f× this "
                                    + "server's saturation", commonRate, RATE_SHARE) : "the saturation probe sustained no rate"));
                        }
                    }
                }
            }
        }
        EnginesReport report = new EnginesReport(runs, command(), method(commands, roundCount, warm, measured));
        report.write(dir);
        out.println((report.pass() ? "PASS" : "FAIL") + " (" + dir.resolve("summary.md") + ")");
        return report.pass() ? 0 : 1;
    }

    /** Each server's AOT cache flag for {@code scenario} ({@link AotCaches}); a cache that cannot be made ends the suite. */
    private Map<String, String> trainCaches(PrintWriter out, Path dir, EngineServers commands, EngineScenario scenario)
        throws IOException {
        Map<String, String> flags = new LinkedHashMap<>();
        for (String server : servers) {
            if (EngineServers.runs(server, scenario)) {
                String flag = AotCaches.train(commands, server, scenario, dir, readyTimeout, token, command());
                flags.put(server, flag);
                out.println("| " + scenario.id + " | " + server + " | | aot | | | | | "
                    + (flag.isEmpty() ? "no {jvm} in its command: runs without a cache" : "cache trained") + " |");
            }
        }
        return flags;
    }

    /** The saturation probe of {@code scenario}: a closed loop over {@link #CONNECTIONS} connections. */
    static RunConfig saturation(EngineScenario scenario, Duration warm, Duration measured) {
        return new RunConfig("127.0.0.1", 1, Mode.SATURATE, 0, CONNECTIONS, scenario.pipeline, RunConfig.DEFAULT_QUEUE, warm,
            measured, Duration.ofSeconds(10), 1, null, null, null, RunConfig.DEFAULT_MAX_GENERATOR_LAG_MILLIS, null);
    }

    /** An open-loop run at {@code rps}, with the deep per-connection queue that measures a stall instead of dropping. */
    private static RunConfig openLoop(double rps, Duration warm, Duration measured) {
        return new RunConfig("127.0.0.1", 1, Mode.RATE, rps, CONNECTIONS, 1, RATE_QUEUE, warm, measured, Duration.ofSeconds(10),
            1, null, null, null, RunConfig.DEFAULT_MAX_GENERATOR_LAG_MILLIS, null);
    }

    /** Runs {@code planned} on a fresh server; a server that does not start is a failed run, and the suite goes on. */
    private EngineRun run(PrintWriter out, Path dir, EngineRun planned, RunConfig config) {
        EngineScenario scenario = planned.scenario();
        try {
            ServerRun run = ServerRun.measure(planned.command(), dir, planned.name(), readyTimeout, config,
                data -> scenario.load(token), command() + " [" + planned.name() + "]");
            EngineRun done = new EngineRun(scenario, planned.server(), planned.round(), planned.kind(), planned.command(), run, null);
            out.println(String.format(Locale.ROOT, "| %s | %s | %d | %s | %,.0f | %.3f | %.2f | %.1f | %s |", scenario.id,
                done.server(), done.round(), done.kind().label(), run.result().rps(), run.result().latencyMillis(99),
                run.cpuMicrosPerRequest(), run.peakRssBytes() / (1024.0 * 1024), done.pass() ? "PASS"
                    : "FAIL: " + String.join("; ", done.reasons())));
            return done;
        } catch (IOException e) {
            return failed(out, planned, e.getMessage());
        }
    }

    private static EngineRun failed(PrintWriter out, EngineRun planned, String why) {
        out.println("| " + planned.scenario().id + " | " + planned.server() + " | " + planned.round() + " | "
            + planned.kind().label() + " | | | | | FAIL: " + why + " |");
        return new EngineRun(planned.scenario(), planned.server(), planned.round(), planned.kind(), planned.command(), null, why);
    }

    private List<EngineScenario> scenarios() {
        List<EngineScenario> chosen = new ArrayList<>();
        for (String id : scenarios) {
            EngineScenario scenario = EngineScenario.of(id);
            if (scenario == null) {
                throw new ParameterException(spec.commandLine(), "unknown scenario '" + id + "' (s1, s2, s3, s4, p64)");
            }
            chosen.add(scenario);
        }
        return chosen;
    }

    private EngineServers servers(List<EngineScenario> chosen) {
        for (String name : servers) {
            if (!EngineServers.NAMES.contains(name)) {
                throw new ParameterException(spec.commandLine(),
                    "unknown server '" + name + "' (" + String.join(", ", EngineServers.NAMES) + ")");
            }
        }
        for (var given : overrides.entrySet()) {
            if (!EngineServers.NAMES.contains(given.getKey()) || !given.getValue().contains("{port}")) {
                throw new ParameterException(spec.commandLine(), "--server takes NAME=CMD with NAME one of "
                    + String.join(", ", EngineServers.NAMES) + " and {port} in CMD, got " + given.getKey() + "=" + given.getValue());
            }
        }
        EngineServers commands = new EngineServers(overrides, peersJar != null ? peersJar : EngineServers.defaultPeersJar());
        for (String name : servers) {
            boolean needed = chosen.stream().anyMatch(s -> EngineServers.runs(name, s));
            if (needed && commands.needsPeersJar(name) && !commands.hasPeersJar()) {
                throw new ParameterException(spec.commandLine(), "server " + name + " needs the peers jar " + commands.peersJar()
                    + ": build it (./mvnw -pl bench -am package -DskipTests), give --peers-jar or --server " + name + "=CMD");
            }
        }
        return commands;
    }

    private String method(EngineServers commands, int roundCount, Duration warm, Duration measured) {
        StringBuilder md = new StringBuilder(String.format(Locale.ROOT, "Every run on a fresh server (free port, fresh data "
            + "directory). Per scenario and round, each server in turn: a saturation probe (closed loop, %d connections, "
            + "%s warm-up, %s measured), then on a fresh server a constant-rate run at %.1f× the rate its probe sustained "
            + "(open loop, %d connections, latency from the scheduled time). Medians over %d round(s). In the last column "
            + "above 1 is better for req/s, below 1 for the rest. Every answer is checked (status and exact body); "
            + "a run with any error, drop or wrong body fails.%n%n",
            CONNECTIONS, seconds(warm), seconds(measured), RATE_SHARE, CONNECTIONS, roundCount));
        if (commonRate != null) {
            md.append(String.format(Locale.ROOT, "Then, on a fresh server, a constant-rate run at the common rate of %,.0f req/s "
                + "for every server whose %.1f× lies at or above it (\"at the common rate\" rows, medians over the rounds a "
                + "server ran at it; — where it ran in none).%n%n", commonRate, RATE_SHARE));
        }
        if (aot) {
            md.append(String.format(Locale.ROOT, "Every JVM server ran with its own ahead-of-time cache, one per scenario "
                + "(`{cache}` below), recorded by a %d-s training probe of that scenario on a server started with "
                + "`-XX:AOTCacheOutput` (not counted).%n%n", AotCaches.TRAINING_SECONDS));
        }
        for (String server : servers) {
            String shown = EngineServers.withJvmFlags(commands.template(server),
                aot && commands.takesJvmFlags(server) ? "-XX:AOTCache={cache}" : "");
            md.append("- ").append(server).append(": `").append(shown).append("`\n");
        }
        md.append("- Generator: this process, one event loop (pin it: `taskset -c 1 ./hotpath bench engines`)\n")
            .append("- Machine: ").append(Provenance.machine()).append(", JDK ").append(Runtime.version()).append('\n')
            .append("- Commit: ").append(Provenance.commit()).append('\n');
        return md.toString();
    }

    private static String seconds(Duration span) {
        return span.toMillis() / 1000.0 + " s";
    }

    private String command() {
        return "hotpath " + String.join(" ", spec.commandLine().getParseResult().originalArgs());
    }
}
