package dev.hotpath.cli;

import dev.hotpath.loadgen.RunResult;
import dev.hotpath.loadgen.Tally;
import java.util.List;

/**
 * One run of {@code hotpath bench engines}: a scenario, a server, a round, a kind, and either what it
 * measured or why it could not run (the server did not start; the probe before it had no answer).
 *
 * @param command the command the server was started with
 * @param run what was measured, or null when nothing ran
 * @param failure why nothing ran, or null
 */
record EngineRun(EngineScenario scenario, String server, int round, Kind kind, String command, ServerRun run,
                 String failure) {
    /**
     * A closed-loop saturation probe, the open-loop run at 0.7× of it, or an open-loop run at the one
     * rate given to every server ({@code --common-rate}).
     */
    enum Kind {
        PROBE, RATE, COMMON;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** Where its files go under the suite's directory, e.g. {@code s2-vertx-r1-rate}. */
    String name() {
        return scenario.id + "-" + server + "-r" + round + "-" + kind.label();
    }

    boolean pass() {
        return run != null && run.result().verdict().pass();
    }

    List<String> reasons() {
        return run == null ? List.of(failure) : run.result().verdict().reasons();
    }

    /**
     * Everything that went wrong in the run: errors, unexpected statuses and mismatches of the warm-up,
     * the measured period and any verification, and the measured period's drops; -1 when nothing ran.
     */
    long errors() {
        if (run == null) {
            return -1;
        }
        RunResult r = run.result();
        Tally verification = r.verification();
        return r.warmup().problems() + r.measured().problems() + r.measured().dropped()
            + (verification == null ? 0 : verification.problems());
    }
}
