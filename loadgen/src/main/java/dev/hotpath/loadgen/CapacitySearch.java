package dev.hotpath.loadgen;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The social challenge's score: the most virtual users a server holds for a full hold at the SLO,
 * found the challenge's way. An unscored warm-up; then from {@link Plan#startUsers()} the level
 * doubles until a run fails; the gap between the last pass and the first failure is bisected (on
 * multiples of {@link Plan#resolution()} above the last pass, so levels stay round) until it is at most
 * the resolution wide; the last pass is then held for {@link Plan#hold()}, and
 * when that hold fails the level steps down by the resolution and holds again. The score is the level
 * of the first hold that passes (0 when none does).
 *
 * <p>Pure logic over a {@link Trial}, which runs one level and says whether it passed: the search
 * itself is tested without a server, and the trial decides what a run is (users, time scale, SLO).
 */
public final class CapacitySearch {
    /** Which part of the search a run belongs to. */
    public enum Phase {
        WARM_UP, DOUBLING, BISECTION, HOLD;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    /**
     * @param warmupUsers users of the unscored warm-up (0: none)
     * @param warmupHold the warm-up's hold
     * @param startUsers the first level of the search
     * @param resolution the widest gap bisection leaves, and the step down after a failed hold
     * @param stepHold the hold of each search run
     * @param hold the hold that scores
     * @param maxUsers the search does not go above this: a level that would is not run, and the score
     *     is then at most the last level that passed (reported as a bound)
     */
    public record Plan(int warmupUsers, Duration warmupHold, int startUsers, int resolution, Duration stepHold,
                       Duration hold, int maxUsers) {
        public Plan {
            if (warmupUsers < 0 || startUsers < 1 || resolution < 1 || maxUsers < startUsers) {
                throw new IllegalArgumentException("a search plan needs 0 <= warm-up users, 1 <= resolution, "
                    + "1 <= start users <= max users");
            }
            // Every level is then a multiple of the resolution, so a gap wider than it is at least twice
            // it, and its middle on that grid lies strictly between the last pass and the first failure.
            if (startUsers % resolution != 0 || maxUsers % resolution != 0) {
                throw new IllegalArgumentException("the start and the most users must be multiples of the resolution ("
                    + resolution + ")");
            }
        }
    }

    /** One run of the search. */
    public record Step(Phase phase, int users, Duration hold) {
    }

    /** What a run showed: pass or fail, and a line saying why (its figures or its first reason). */
    public record Outcome(boolean pass, String detail) {
    }

    /** A run and what it showed. */
    public record Record(Step step, Outcome outcome) {
    }

    /**
     * @param users the level whose hold passed; 0 when none did
     * @param capped the doubling reached {@link Plan#maxUsers()} without a failure: the server may hold more
     */
    public record Score(int users, boolean capped, List<Record> runs) {
    }

    /** Runs one step; a run that cannot even start throws. */
    @FunctionalInterface
    public interface Trial {
        Outcome run(Step step) throws IOException;
    }

    private final Plan plan;

    public CapacitySearch(Plan plan) {
        this.plan = plan;
    }

    /** The whole search; {@code onRun} hears of each run as it ends. */
    public Score run(Trial trial, Consumer<Record> onRun) throws IOException {
        List<Record> runs = new ArrayList<>();
        Runner runner = new Runner(trial, onRun, runs);
        if (plan.warmupUsers() > 0) {
            runner.run(Phase.WARM_UP, plan.warmupUsers(), plan.warmupHold());
        }
        int passed = 0;
        int failed = -1;
        for (int level = plan.startUsers(); level <= plan.maxUsers(); level = nextDoubling(level)) {
            if (!runner.run(Phase.DOUBLING, level, plan.stepHold())) {
                failed = level;
                break;
            }
            passed = level;
            if (level == plan.maxUsers()) {
                break;
            }
        }
        boolean capped = failed < 0;
        while (!capped && failed - passed > plan.resolution()) {
            int middle = passed + (failed - passed) / 2 / plan.resolution() * plan.resolution();
            if (runner.run(Phase.BISECTION, middle, plan.stepHold())) {
                passed = middle;
            } else {
                failed = middle;
            }
        }
        for (int level = passed; level > 0; level -= plan.resolution()) {
            if (runner.run(Phase.HOLD, level, plan.hold())) {
                return new Score(level, capped, List.copyOf(runs));
            }
            capped = false;
        }
        return new Score(0, false, List.copyOf(runs));
    }

    /** Twice {@code level}, but never past the plan's maximum (which is then run itself). */
    private int nextDoubling(int level) {
        return (int) Math.min((long) level * 2, plan.maxUsers());
    }

    private record Runner(Trial trial, Consumer<Record> onRun, List<Record> runs) {
        boolean run(Phase phase, int users, Duration hold) throws IOException {
            Step step = new Step(phase, users, hold);
            Record record = new Record(step, trial.run(step));
            runs.add(record);
            onRun.accept(record);
            return record.outcome().pass();
        }
    }
}
