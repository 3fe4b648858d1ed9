package dev.hotpath.loadgen;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What one run measured, read-only: the measured period's {@link Tally}, the warm-up's (checked, not
 * measured), how many arrivals the schedule planned (rate mode; -1 otherwise), how long the measured
 * period really lasted, and the outcome of the post-run verification when the scenario has one.
 *
 * @param verification what the verification pass counted (every answer checked), or null when the
 *     scenario verifies nothing after the run
 * @param generatorPauses the generator's own collection pauses in the measured period
 * @param firstError the earliest problem of the warm-up or measured period, else the verification's;
 *     null when there was none
 * @param endToEnd for a scenario with a {@link Readback}: what its re-read passes found and the lag from
 *     acknowledgement to found; null otherwise ({@code verification} then counts every re-read of the passes)
 */
public record RunResult(RunConfig config, String scenario, Instant startedAt, long planned, Tally measured,
                        Tally warmup, double measuredSeconds, Tally verification, String transport,
                        GeneratorPauses.Summary generatorPauses, String firstError, EndToEnd endToEnd) {
    public RunResult(RunConfig config, String scenario, Instant startedAt, long planned, Tally measured, Tally warmup,
                     double measuredSeconds, Tally verification, String transport,
                     GeneratorPauses.Summary generatorPauses, String firstError) {
        this(config, scenario, startedAt, planned, measured, warmup, measuredSeconds, verification, transport,
            generatorPauses, firstError, null);
    }

    /** Answers per second over the measured period. */
    public double rps() {
        return measuredSeconds <= 0 ? 0 : measured.ok() / measuredSeconds;
    }

    /** Errors of every kind, unexpected statuses and mismatches over attempted requests. */
    public double errorRate() {
        return measured.attempted() == 0 ? 0 : (double) measured.problems() / measured.attempted();
    }

    /** The measured latency at {@code percentile} (0..100), in milliseconds. */
    public double latencyMillis(double percentile) {
        return measured.latency().millisAt(percentile);
    }

    /**
     * Each whole second of the measured period, in order: the partial last second and the drain after
     * the end are left out (a throughput falling to nothing at the end of every run is not the
     * server's); a second without answers is there, silent.
     */
    public List<Tally.Second> wholeSeconds() {
        int whole = (int) Math.floor(measuredSeconds + 1e-9);
        List<Tally.Second> seconds = new ArrayList<>(measured.seconds().subList(0, Math.min(whole, measured.seconds().size())));
        while (seconds.size() < whole) {
            seconds.add(Tally.Second.SILENT);
        }
        return seconds;
    }

    public Verdict verdict() {
        return Verdict.of(this);
    }
}
