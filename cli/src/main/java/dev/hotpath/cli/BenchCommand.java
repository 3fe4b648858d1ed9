package dev.hotpath.cli;

import dev.hotpath.loadgen.LoadRun;
import dev.hotpath.loadgen.Mode;
import dev.hotpath.loadgen.Progress;
import dev.hotpath.loadgen.ResultWriter;
import dev.hotpath.loadgen.RunConfig;
import dev.hotpath.loadgen.RunResult;
import dev.hotpath.loadgen.Scenario;
import dev.hotpath.loadgen.Verdict;
import dev.hotpath.loadgen.scenario.CreateScenario;
import dev.hotpath.loadgen.scenario.PingScenario;
import dev.hotpath.loadgen.scenario.RedirectScenario;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hotpath bench SCENARIO --target URL [flags]}: one fail-closed load run. Exit 0 on PASS, 1 on
 * FAIL, 2 on an invalid command line; the files go to {@code --results}/UTC stamp/.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Load a running server, check every answer, and pass only if nothing went wrong.",
        "Scenarios: ping, redirect, create. Exit 0 PASS, 1 FAIL, 2 invalid flags."})
final class BenchCommand implements Callable<Integer> {
    enum Popularity { UNIFORM, ZIPF }

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SCENARIO", description = "ping, redirect or create.")
    private String scenario;

    @Option(names = "--target", required = true, description = "Base URL of the server, e.g. http://127.0.0.1:8080.")
    private URI target;

    @Option(names = "--mode", defaultValue = "saturate", description = "rate (open loop) or saturate (closed loop).")
    private Mode mode;

    @Option(names = "--rps", defaultValue = "0", description = "Target requests per second (rate mode).")
    private double rps;

    @Option(names = "--connections", defaultValue = "64", description = "Connections (default: ${DEFAULT-VALUE}).")
    private int connections;

    @Option(names = "--pipeline", defaultValue = "1", description = "Requests in flight per connection (default: ${DEFAULT-VALUE}).")
    private int pipeline;

    @Option(names = "--duration", defaultValue = "10s", converter = Converters.Span.class,
        description = "Measured period (default: ${DEFAULT-VALUE}).")
    private Duration duration;

    @Option(names = "--warmup", converter = Converters.Span.class, description = "Checked but unmeasured lead-in (default: none).")
    private Duration warmup;

    @Option(names = "--queue", defaultValue = "" + RunConfig.DEFAULT_QUEUE,
        description = "Requests a connection may hold in rate mode before dropping (default: ${DEFAULT-VALUE}).")
    private int queue;

    @Option(names = "--drain-timeout", defaultValue = "10s", converter = Converters.Span.class,
        description = "How long owed answers are awaited after the end (default: ${DEFAULT-VALUE}).")
    private Duration drainTimeout;

    @Option(names = "--event-loops", defaultValue = "1", description = "Generator threads (default: ${DEFAULT-VALUE}).")
    private int eventLoops;

    @Option(names = "--max-p99-ms", description = "Fail above this p99.")
    private Double maxP99;

    @Option(names = "--max-p95-ms", description = "Fail above this p95.")
    private Double maxP95;

    @Option(names = "--max-error-rate", description = "Tolerate this share of failed requests (default: none).")
    private Double maxErrorRate;

    @Option(names = "--max-generator-lag-ms", defaultValue = "" + RunConfig.DEFAULT_MAX_GENERATOR_LAG_MILLIS,
        description = "Rate mode fails when the generator's own p99 send lag is above this (default: ${DEFAULT-VALUE}).")
    private double maxGeneratorLag;

    @Option(names = "--key", description = "API key (redirect seeding, create).")
    private String key;

    @Option(names = "--key-file", description = "File holding the API key, such as <data>/api-key.")
    private Path keyFile;

    @Option(names = "--links", defaultValue = "10000", description = "Links seeded for redirect (default: ${DEFAULT-VALUE}).")
    private int links;

    @Option(names = "--popularity", defaultValue = "uniform", description = "uniform or zipf (redirect).")
    private Popularity popularity;

    @Option(names = "--redirect-status", defaultValue = "302", description = "The redirect status expected (default: ${DEFAULT-VALUE}).")
    private int redirectStatus;

    @Option(names = "--path", defaultValue = "/ping", description = "Path of the ping scenario (default: ${DEFAULT-VALUE}).")
    private String path;

    @Option(names = "--results", defaultValue = "results", description = "Where run directories go (default: ${DEFAULT-VALUE}).")
    private Path results;

    @Override
    public Integer call() throws IOException {
        RunConfig config = config();
        Scenario chosen = scenario();
        PrintWriter out = spec.commandLine().getOut();
        Progress progress = System.console() != null ? Progress.line(System.out) : Progress.NONE;
        RunResult result = LoadRun.run(config, chosen, progress);
        if (progress != Progress.NONE) {
            System.out.println();
        }
        Path dir = ResultWriter.directoryFor(results, result);
        ResultWriter.write(dir, result, new ResultWriter.Provenance(command(), Provenance.commit(), Provenance.machine()));
        Verdict verdict = result.verdict();
        out.print(Files.readString(dir.resolve("summary.md")));
        out.println();
        out.println((verdict.pass() ? "PASS" : "FAIL") + " (" + dir + ")");
        return verdict.pass() ? 0 : 1;
    }

    private RunConfig config() {
        if (!"http".equals(target.getScheme()) || target.getHost() == null || target.getPort() <= 0) {
            throw new ParameterException(spec.commandLine(), "--target must be http://HOST:PORT, got " + target);
        }
        try {
            return new RunConfig(target.getHost().replace("[", "").replace("]", ""), target.getPort(), mode,
                mode == Mode.RATE ? rps : checkNoRate(), connections, pipeline, queue,
                warmup == null ? Duration.ZERO : warmup, duration, drainTimeout, eventLoops, maxP99, maxP95, maxErrorRate,
                maxGeneratorLag);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    private double checkNoRate() {
        if (rps != 0) {
            throw new ParameterException(spec.commandLine(), "--rps applies to --mode rate only");
        }
        return 0;
    }

    private Scenario scenario() throws IOException {
        return switch (scenario) {
            case "ping" -> new PingScenario(path);
            case "redirect" -> {
                if (links < 1 || links > 10_000_000) {
                    throw new ParameterException(spec.commandLine(), "--links must be 1..10000000");
                }
                yield new RedirectScenario(apiKey(), links, popularity == Popularity.ZIPF, redirectStatus);
            }
            case "create" -> new CreateScenario(apiKey(), redirectStatus);
            default -> throw new ParameterException(spec.commandLine(),
                "unknown scenario '" + scenario + "' (ping, redirect, create)");
        };
    }

    private String apiKey() throws IOException {
        if (key != null) {
            return key;
        }
        if (keyFile == null) {
            throw new ParameterException(spec.commandLine(), "scenario " + scenario + " needs --key or --key-file");
        }
        if (!Files.isReadable(keyFile)) {
            throw new ParameterException(spec.commandLine(), "--key-file " + keyFile + " cannot be read");
        }
        return Files.readString(keyFile).strip();
    }

    private String command() {
        return "hotpath " + String.join(" ", spec.commandLine().getParseResult().originalArgs());
    }
}
