package dev.hotpath.loadgen;

import dev.hotpath.loadgen.internal.Stats;
import java.time.Instant;

/**
 * What one run measured: the measured period's {@link Stats}, the warm-up's (checked, not measured),
 * how many arrivals the schedule planned (rate mode; -1 otherwise), how long the measured period
 * really lasted, and the outcome of the post-run verification when the scenario has one.
 *
 * @param verification stats of the verification pass (every answer checked), or null when the scenario
 *     verifies nothing after the run
 * @param generatorPauses the generator's own collection pauses in the measured period
 */
public record RunResult(RunConfig config, String scenario, Instant startedAt, long planned, Stats measured,
                        Stats warmup, double measuredSeconds, Stats verification, String transport,
                        GeneratorPauses.Summary generatorPauses) {
    /** Answers per second over the measured period. */
    public double rps() {
        return measuredSeconds <= 0 ? 0 : measured.ok / measuredSeconds;
    }

    /** Errors of every kind, unexpected statuses and mismatches over attempted requests. */
    public double errorRate() {
        long bad = measured.errorCount() + measured.unexpectedStatus + measured.mismatches;
        return measured.attempted == 0 ? 0 : (double) bad / measured.attempted;
    }

    /** The measured latency at {@code percentile} (0..100), in milliseconds. */
    public double latencyMillis(double percentile) {
        return measured.latency.getValueAtPercentile(percentile) / 1000.0;
    }

    public Verdict verdict() {
        return Verdict.of(this);
    }
}
