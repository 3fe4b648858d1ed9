package dev.hotpath.cli;

import dev.hotpath.loadgen.CapacitySearch;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The flags of {@code hotpath bench social --score}: the challenge's capacity search, with its
 * parameters as defaults, and how many connections this machine lets one process hold.
 */
final class ScoreOptions {
    @Option(names = "--score", description = "Social: find the most users held at the SLO, the challenge's way "
        + "(warm-up, doubling, bisection, a scored hold), for each mix (or --mix).")
    boolean enabled;

    @Option(names = "--max-connections", defaultValue = "19000",
        description = "Score: connections at most; more users than this run time-scaled, think times divided by "
            + "users / connections (default: ${DEFAULT-VALUE}, under the 20,000 descriptors a process may hold here).")
    int maxConnections;

    @Option(names = "--server-pid", description = "Score: the server's process id, to measure its memory per held "
        + "connection and its resident set (Linux /proc).")
    Long serverPid;

    @Option(names = "--warmup-users", defaultValue = "1000", description = "Score: users of the unscored warm-up, 0 for none (default: ${DEFAULT-VALUE}).")
    int warmupUsers;

    @Option(names = "--warmup-hold", defaultValue = "2m", converter = Converters.Span.class,
        description = "Score: the warm-up's hold (default: ${DEFAULT-VALUE}).")
    Duration warmupHold;

    @Option(names = "--start-users", defaultValue = "2500", description = "Score: the search's first level (default: ${DEFAULT-VALUE}).")
    int startUsers;

    @Option(names = "--resolution", defaultValue = "250",
        description = "Score: bisection stops this close; a failed hold steps down by it (default: ${DEFAULT-VALUE}).")
    int resolution;

    @Option(names = "--step-hold", defaultValue = "30s", converter = Converters.Span.class,
        description = "Score: the hold of each search run (default: ${DEFAULT-VALUE}).")
    Duration stepHold;

    @Option(names = "--hold", defaultValue = "5m", converter = Converters.Span.class,
        description = "Score: the hold that scores (default: ${DEFAULT-VALUE}).")
    Duration hold;

    @Option(names = "--max-users", defaultValue = "10000000",
        description = "Score: the search goes no higher; reaching it scores 'at least' (default: ${DEFAULT-VALUE}).")
    int maxUsers;

    CapacitySearch.Plan plan() {
        return new CapacitySearch.Plan(warmupUsers, warmupHold, startUsers, resolution, stepHold, hold, maxUsers);
    }
}
