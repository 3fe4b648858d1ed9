package dev.hotpath.cli;

import dev.hotpath.loadgen.Mode;
import dev.hotpath.loadgen.RunConfig;
import dev.hotpath.loadgen.Scenario;
import dev.hotpath.loadgen.UsersModel;
import dev.hotpath.loadgen.scenario.CreateScenario;
import dev.hotpath.loadgen.scenario.MessagesScenario;
import dev.hotpath.loadgen.scenario.MixedScenario;
import dev.hotpath.loadgen.scenario.PingScenario;
import dev.hotpath.loadgen.scenario.RedirectScenario;
import dev.hotpath.loadgen.scenario.SocialScenario;
import dev.hotpath.loadgen.scenario.UserReadScenario;
import dev.hotpath.loadgen.scenario.UsersMixScenario;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/** The scenario and pacing flags of {@code hotpath bench} and {@code hotpath bench compare}. */
final class LoadOptions {
    enum Popularity { UNIFORM, ZIPF }

    @Spec(Spec.Target.MIXEE)
    private CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "SCENARIO",
        description = "ping, redirect, create, mixed, social, messages, users-get or users-mix.")
    String scenario;

    @Option(names = "--mode", defaultValue = "saturate",
        description = "rate (open loop), saturate (closed loop) or users (virtual users with think times).")
    private Mode mode;

    @Option(names = "--rps", defaultValue = "0", description = "Target requests per second (rate mode).")
    private double rps;

    @Option(names = "--connections", defaultValue = "64", description = "Connections (default: ${DEFAULT-VALUE}).")
    private int connections;

    @Option(names = "--users", description = "Virtual users, one connection each (users mode).")
    private Integer users;

    @Option(names = "--ramp-up", defaultValue = "60s", converter = Converters.Span.class,
        description = "Users mode: time over which users arrive (default: ${DEFAULT-VALUE}).")
    private Duration rampUp;

    @Option(names = "--ramp-down", defaultValue = "30s", converter = Converters.Span.class,
        description = "Users mode: time over which users leave after the hold (default: ${DEFAULT-VALUE}).")
    private Duration rampDown;

    @Option(names = "--think-min", defaultValue = "3s", converter = Converters.Span.class,
        description = "Users mode: shortest think time after an answer (default: ${DEFAULT-VALUE}).")
    private Duration thinkMin;

    @Option(names = "--think-max", defaultValue = "7s", converter = Converters.Span.class,
        description = "Users mode: longest think time (default: ${DEFAULT-VALUE}).")
    private Duration thinkMax;

    @Option(names = "--pipeline", defaultValue = "1", description = "Requests in flight per connection (default: ${DEFAULT-VALUE}).")
    private int pipeline;

    @Option(names = "--duration", defaultValue = "10s", converter = Converters.Span.class,
        description = "Measured period; in users mode, the hold (default: ${DEFAULT-VALUE}).")
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

    @Option(names = "--max-generator-lag-ms",
        description = "Rate and users mode fail when the p99 lateness of the generator's own wake-ups is above this "
            + "(default: " + RunConfig.DEFAULT_MAX_GENERATOR_LAG_MILLIS + " in rate mode, "
            + RunConfig.DEFAULT_USERS_MAX_GENERATOR_LAG_MILLIS + " in users mode).")
    private Double maxGeneratorLag;

    @Option(names = "--key", description = "API key (redirect seeding, create).")
    private String key;

    @Option(names = "--key-file", description = "File holding the API key, such as <data>/api-key.")
    private String keyFile;

    @Option(names = "--links", defaultValue = "10000", description = "Links seeded for redirect (default: ${DEFAULT-VALUE}).")
    private int links;

    @Option(names = "--links-file", description = "Redirect: reuse the links listed here instead of seeding; "
        + "seed and write them when the file does not exist yet. {data} is the server's data directory (bench compare).")
    private String linksFile;

    @Option(names = "--popularity", defaultValue = "uniform", description = "uniform or zipf (redirect).")
    private Popularity popularity;

    @Option(names = "--redirect-status", defaultValue = "302", description = "The redirect status expected (default: ${DEFAULT-VALUE}).")
    private int redirectStatus;

    @Option(names = "--create-percent", defaultValue = "5", description = "Mixed: share of creates (default: ${DEFAULT-VALUE}).")
    private int createPercent;

    @Option(names = "--miss-percent", defaultValue = "1", description = "Mixed: share of unknown codes (default: ${DEFAULT-VALUE}).")
    private int missPercent;

    @Option(names = "--creates", description = "Create, saturate mode: send this many creates in all (warm-up included),"
        + " then end the run once they are answered; --duration still bounds it (default: as many as the run takes).")
    private Long creates;

    @Option(names = "--tokens-file", description = "Social: bearer tokens, one per line (hotpath social tokens).")
    private Path tokensFile;

    @Option(names = "--mix", converter = Converters.SocialMix.class,
        description = "Social: realistic (like 0.15, create 0.02 after each post read; the default) or write-heavy (1.0 and 0.5).")
    private SocialScenario.Mix mix;

    @Option(names = "--token", defaultValue = UserReadScenario.DEFAULT_TOKEN,
        description = "users-get, users-mix: the bearer token the server accepts (default: ${DEFAULT-VALUE}).")
    private String token;

    @Option(names = "--path", description = "Path of the ping scenario (default: /ping) or the messages one (default: /message).")
    private String path;

    @Option(names = "--drain-deadline", converter = Converters.Span.class,
        description = "Messages --path /message-fast: how long after the run the re-reads may still miss an acknowledged message, "
            + "retried in passes until then (default: 30s).")
    private Duration drainDeadline;

    @Option(names = "--expect-body", defaultValue = "pong",
        description = "Ping: the exact body every answer must carry (default: ${DEFAULT-VALUE}).")
    private String expectBody;

    @Option(names = "--results", defaultValue = "results", description = "Where run directories go (default: ${DEFAULT-VALUE}).")
    Path results;

    /** The run against {@code host:port}; every bad value answered as a command-line error. */
    RunConfig config(String host, int port) {
        if (mode != Mode.RATE && rps != 0) {
            throw new ParameterException(spec.commandLine(), "--rps applies to --mode rate only");
        }
        if ((mode == Mode.USERS) != (users != null)) {
            throw new ParameterException(spec.commandLine(), "--users and --mode users go together");
        }
        try {
            if (mode == Mode.USERS) {
                return usersConfig(host, port, users, duration);
            }
            return new RunConfig(host, port, mode, mode == Mode.RATE ? rps : 0, connections, pipeline, queue,
                warmup == null ? Duration.ZERO : warmup, duration, drainTimeout, eventLoops, maxP99, maxP95, maxErrorRate,
                maxGeneratorLag == null ? RunConfig.DEFAULT_MAX_GENERATOR_LAG_MILLIS : maxGeneratorLag, null);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /**
     * A users-mode run of {@code connections} users holding for {@code hold}, with this command line's
     * ramps and think times, and the social challenge's pass rule unless told otherwise: p95 < 500 ms,
     * p99 < 1 s, under 1% failed.
     */
    RunConfig usersConfig(String host, int port, int connections, Duration hold) {
        return new RunConfig(host, port, Mode.USERS, 0, connections, 1, 0, Duration.ZERO, hold, drainTimeout, eventLoops,
            maxP99 == null ? 1000.0 : maxP99, maxP95 == null ? 500.0 : maxP95,
            maxErrorRate == null ? 0.01 : maxErrorRate,
            maxGeneratorLag == null ? RunConfig.DEFAULT_USERS_MAX_GENERATOR_LAG_MILLIS : maxGeneratorLag,
            new UsersModel(rampUp, rampDown, thinkMin, thinkMax));
    }

    /** The social scenario of this command line's tokens, with {@code mix} and think times multiplied by {@code thinkScale}. */
    SocialScenario socialScenario(SocialScenario.Mix mix, double thinkScale) throws IOException {
        return new SocialScenario(SocialScenario.readTokens(tokensFile), mix, thinkScale);
    }

    /** Which of the flags {@code names} the command line gave. */
    List<String> given(String... names) {
        ParseResult parsed = spec.commandLine().getParseResult();
        return Arrays.stream(names).filter(parsed::hasMatchedOption).toList();
    }

    /** {@code --mix}: null when not given. */
    SocialScenario.Mix mix() {
        return mix;
    }

    /** Checks the scenario flags without touching any file; for a command that starts servers first. */
    void validateScenario() {
        validateScenario(Collections.singletonList(path));
    }

    /**
     * As {@link #validateScenario()}, for runs that post to {@code paths} (null: {@code --path}), as
     * {@code bench compare --a-path/--b-path} do: {@code --drain-deadline} needs one of them to be the
     * messages fast path, and applies to those runs only.
     */
    void validateScenario(List<String> paths) {
        if (scenario == null) {
            throw new ParameterException(spec.commandLine(), "Missing required parameter: SCENARIO (ping, redirect, create)");
        }
        if (drainDeadline != null && !(scenario.equals("messages")
            && paths.stream().anyMatch(p -> MessagesScenario.FAST_PATH.equals(p == null ? path : p)))) {
            throw new ParameterException(spec.commandLine(), "--drain-deadline applies to messages --path "
                + MessagesScenario.FAST_PATH + " only");
        }
        if (creates != null && (!scenario.equals("create") || mode != Mode.SATURATE || creates < 1)) {
            throw new ParameterException(spec.commandLine(), "--creates applies to create in --mode saturate and must be at least 1");
        }
        if (mix != null && !scenario.equals("social")) {
            throw new ParameterException(spec.commandLine(), "--mix applies to scenario social only");
        }
        switch (scenario) {
            case "ping", "messages", "users-get", "users-mix" -> { }
            case "social" -> {
                if (mode == Mode.RATE || pipeline != 1) {
                    throw new ParameterException(spec.commandLine(),
                        "scenario social runs in --mode users, or --mode saturate with --pipeline 1 (the closed-loop mix)");
                }
                if (tokensFile == null || !Files.isReadable(tokensFile)) {
                    throw new ParameterException(spec.commandLine(), "scenario social needs a readable --tokens-file");
                }
            }
            case "redirect", "create", "mixed" -> {
                if (!scenario.equals("create") && (links < 1 || links > 10_000_000)) {
                    throw new ParameterException(spec.commandLine(), "--links must be 1..10000000");
                }
                if (key == null && keyFile == null) {
                    throw new ParameterException(spec.commandLine(), "scenario " + scenario + " needs --key or --key-file");
                }
                if (scenario.equals("mixed") && (createPercent < 0 || missPercent < 0 || createPercent + missPercent > 100)) {
                    throw new ParameterException(spec.commandLine(),
                        "--create-percent and --miss-percent must be 0..100 and add up to at most 100");
                }
            }
            default -> throw new ParameterException(spec.commandLine(),
                "unknown scenario '" + scenario + "' (ping, redirect, create, mixed, social, messages, users-get, users-mix)");
        }
    }

    /**
     * A fresh scenario (scenarios keep what they created, so every run needs its own).
     *
     * @param dataDir substituted for {@code {data}} in {@code --key-file} and {@code --links-file}, or null
     */
    Scenario scenario(Path dataDir) throws IOException {
        validateScenario();
        return scenario(dataDir, path);
    }

    /**
     * As {@link #scenario(Path)}, posting to {@code pathOverride} instead of {@code --path} when it is
     * not null (ping and messages); the caller has checked the flags with {@link #validateScenario(List)}.
     */
    Scenario scenario(Path dataDir, String pathOverride) throws IOException {
        String path = pathOverride == null ? this.path : pathOverride;
        return switch (scenario) {
            case "redirect" -> new RedirectScenario(apiKey(dataDir), links, popularity == Popularity.ZIPF, redirectStatus,
                linksFile(dataDir));
            case "create" -> new CreateScenario(apiKey(dataDir), redirectStatus, creates == null ? Long.MAX_VALUE : creates);
            case "social" -> socialScenario(mix == null ? SocialScenario.Mix.REALISTIC : mix, 1.0);
            case "users-get" -> new UserReadScenario(token);
            case "users-mix" -> new UsersMixScenario(token);
            case "mixed" -> new MixedScenario(new RedirectScenario(apiKey(dataDir), links, popularity == Popularity.ZIPF,
                redirectStatus, linksFile(dataDir)), new CreateScenario(apiKey(dataDir), redirectStatus), createPercent, missPercent);
            case "messages" -> new MessagesScenario(path == null ? "/message" : path,
                drainDeadline == null ? MessagesScenario.DEFAULT_DRAIN_DEADLINE : drainDeadline);
            default -> new PingScenario(path == null ? "/ping" : path, expectBody);
        };
    }

    /** Keeps seeded links in {@code file} ({@code {data}} allowed) when {@code --links-file} did not name one. */
    void keepLinksIn(String file) {
        if (linksFile == null) {
            linksFile = file;
        }
    }

    /** {@code --links-file} with {@code {data}} replaced, or null when not given. */
    private Path linksFile(Path dataDir) {
        return linksFile == null ? null : inData("--links-file", linksFile, dataDir);
    }

    /** The file {@code name} of option {@code option}, its {@code {data}} replaced by {@code dataDir}. */
    private Path inData(String option, String name, Path dataDir) {
        if (dataDir == null && name.contains("{data}")) {
            throw new ParameterException(spec.commandLine(),
                option + " " + name + ": {data} names a server's data directory, known only to bench compare");
        }
        return Path.of(dataDir == null ? name : name.replace("{data}", dataDir.toString()));
    }

    private String apiKey(Path dataDir) throws IOException {
        if (key != null) {
            return key;
        }
        Path file = inData("--key-file", keyFile, dataDir);
        if (!Files.isReadable(file)) {
            throw new ParameterException(spec.commandLine(), "--key-file " + file + " cannot be read");
        }
        return Files.readString(file).strip();
    }

    /** The command line as given, for the record. */
    String command() {
        return "hotpath " + String.join(" ", spec.commandLine().getParseResult().originalArgs());
    }
}
