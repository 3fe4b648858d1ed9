package dev.hotpath.cli;

import dev.hotpath.loadgen.LoadRun;
import dev.hotpath.loadgen.Progress;
import dev.hotpath.loadgen.ResultWriter;
import dev.hotpath.loadgen.Verdict;
import dev.hotpath.loadgen.RunResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code hotpath bench SCENARIO --target URL [flags]}: one fail-closed load run. Exit 0 on PASS, 1 on
 * FAIL, 2 on an invalid command line; the files go to {@code --results}/UTC stamp/.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Load a running server, check every answer, and pass only if nothing went wrong.",
        "Scenarios: ping, redirect, create, mixed, social (users mode, or saturate: the closed-loop mix), messages, "
            + "users-get, users-mix (the engine suite's S2 and S3/S4). Exit 0 PASS, 1 FAIL, 2 invalid flags.",
        "social --score: the challenge's capacity search and scored hold, for each mix (exit 0 when each scored)."})
@CommandTree.Subcommands({CompareCommand.class, SuiteCommand.class, EnginesCommand.class})
final class BenchCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--target", description = "Base URL of the server, e.g. http://127.0.0.1:8080.")
    private URI target;

    @Mixin
    private LoadOptions load;

    @Mixin
    private ScoreOptions score;

    @Override
    public Integer call() throws IOException {
        load.validateScenario();
        if (target == null) {
            throw new ParameterException(spec.commandLine(), "Missing required option: --target");
        }
        if (!"http".equals(target.getScheme()) || target.getHost() == null || target.getPort() <= 0) {
            throw new ParameterException(spec.commandLine(), "--target must be http://HOST:PORT, got " + target);
        }
        String host = target.getHost().replace("[", "").replace("]", "");
        if (score.enabled) {
            if (!"social".equals(load.scenario)) {
                throw new ParameterException(spec.commandLine(), "--score applies to scenario social");
            }
            List<String> ignored = load.given("--mode", "--users", "--connections", "--duration", "--rps", "--pipeline",
                "--warmup", "--queue");
            if (!ignored.isEmpty()) {
                throw new ParameterException(spec.commandLine(), "--score sets users, connections and durations itself"
                    + " (--max-connections, --warmup-users, --step-hold, --hold, ...); drop " + String.join(", ", ignored));
            }
            if (score.maxConnections < 2) {
                throw new ParameterException(spec.commandLine(), "--max-connections must be at least 2");
            }
            try {
                score.plan();
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            return new SocialScore(load, score, host, target.getPort(), spec.commandLine().getOut(), System.console() != null).run();
        }
        var config = load.config(host, target.getPort());
        var scenario = load.scenario(null);
        Progress progress = System.console() != null ? Progress.line(System.out) : Progress.NONE;
        RunResult result = LoadRun.run(config, scenario, progress);
        if (progress != Progress.NONE) {
            System.out.println();
        }
        Path dir = save(result, load.results, load.command());
        PrintWriter out = spec.commandLine().getOut();
        out.print(Files.readString(dir.resolve("summary.md")));
        out.println();
        out.println((result.verdict().pass() ? "PASS" : "FAIL") + " (" + dir + ")");
        return result.verdict().pass() ? 0 : 1;
    }

    /** Writes a run's files under {@code root} and returns their directory. */
    static Path save(RunResult result, Path root, String command) throws IOException {
        return save(result, result.verdict(), root, command);
    }

    /** As {@link #save(RunResult, Path, String)}, with the verdict the command reached. */
    static Path save(RunResult result, Verdict verdict, Path root, String command) throws IOException {
        Path dir = ResultWriter.directoryFor(root, result);
        ResultWriter.write(dir, result, verdict, new ResultWriter.Provenance(command, Provenance.commit(), Provenance.machine()));
        return dir;
    }
}
