package dev.hotpath.loadgen;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * PASS or FAIL, with every reason for a FAIL. A run passes only with at least one success and nothing
 * wrong anywhere: no transport error, unexpected status or mismatch (in warm-up, measured period or
 * verification), no drop in the measured period, a clean verification, and in rate mode every planned request attempted and
 * answered and at least 99% of the target rate reached; in rate and users mode the generator itself on
 * schedule (a late wake-up sends less load than asked, so the run would flatter the server); plus the
 * optional bounds of {@link RunConfig}.
 */
public record Verdict(boolean pass, List<String> reasons) {
    /** The share of the target rate a rate-mode run must reach. */
    public static final double MIN_RATE_REACHED = 0.99;

    /**
     * This verdict with a caller's own criteria added, for a command that judges a run by more than the
     * harness does (the social score's rate check): the run's saved files then say what the command says.
     */
    public Verdict with(List<String> moreReasons) {
        if (moreReasons.isEmpty()) {
            return this;
        }
        List<String> all = new ArrayList<>(reasons);
        all.addAll(moreReasons);
        return new Verdict(false, List.copyOf(all));
    }

    static Verdict of(RunResult r) {
        List<String> reasons = new ArrayList<>();
        RunConfig config = r.config();
        Tally m = r.measured();
        if (m.ok() == 0) {
            reasons.add("no successful request");
        }
        if (config.maxErrorRate() == null) {
            problems(m, "", reasons);
        } else if (r.errorRate() > config.maxErrorRate()) {
            reasons.add(String.format(Locale.ROOT, "error rate %.4f above --max-error-rate %s", r.errorRate(), config.maxErrorRate()));
        }
        if (m.dropped() > 0) {
            reasons.add(m.dropped() + " requests dropped (per-connection queue full)");
        }
        // Warm-up answers must be right; warm-up drops are reported (result.json) but do not fail the
        // run: the warm-up exists to absorb the JIT of both sides.
        problems(r.warmup(), "warm-up: ", reasons);
        if (r.verification() != null) {
            Tally v = r.verification();
            problems(v, "verification: ", reasons);
            if (v.attempted() == 0 && m.ok() > 0) {
                reasons.add("verification: nothing was verified");
            }
        }
        EndToEnd e = r.endToEnd();
        if (e != null && e.missing() > 0) {
            reasons.add(e.missing() + " acknowledged writes still missing at the drain deadline of "
                + e.deadline().toMillis() / 1000.0 + " s (first: " + e.firstMissing() + ")");
        }
        if (config.mode() == Mode.RATE) {
            long answered = m.answered();
            if (m.attempted() < r.planned()) {
                reasons.add("attempted " + m.attempted() + " of " + r.planned() + " planned requests");
            }
            if (answered < m.attempted()) {
                reasons.add("answered " + answered + " of " + m.attempted() + " attempted requests");
            }
            double reached = answered / Math.max(1e-9, r.measuredSeconds());
            if (reached < MIN_RATE_REACHED * config.rps()) {
                reasons.add(String.format(Locale.ROOT, "reached %.1f req/s, under %.0f%% of the target %.1f", reached,
                    MIN_RATE_REACHED * 100, config.rps()));
            }
        }
        if (config.mode() != Mode.SATURATE) {
            double lag = m.generatorLag().millisAt(99);
            if (lag > config.maxGeneratorLagMillis()) {
                reasons.add(String.format(Locale.ROOT, "the generator is the bottleneck: p99 of its own wake-up lag %.2f ms is over %.2f ms",
                    lag, config.maxGeneratorLagMillis()));
            }
        }
        if (config.maxP99Millis() != null && r.latencyMillis(99) > config.maxP99Millis()) {
            reasons.add(String.format(Locale.ROOT, "p99 %.2f ms over --max-p99-ms %s", r.latencyMillis(99), config.maxP99Millis()));
        }
        if (config.maxP95Millis() != null && r.latencyMillis(95) > config.maxP95Millis()) {
            reasons.add(String.format(Locale.ROOT, "p95 %.2f ms over --max-p95-ms %s", r.latencyMillis(95), config.maxP95Millis()));
        }
        return new Verdict(reasons.isEmpty(), List.copyOf(reasons));
    }

    private static void problems(Tally s, String phase, List<String> reasons) {
        for (ErrorKind kind : ErrorKind.values()) {
            long count = s.errors(kind);
            if (count > 0) {
                reasons.add(phase + count + " " + kind.key() + " errors");
            }
        }
        if (s.unexpectedStatus() > 0) {
            reasons.add(phase + s.unexpectedStatus() + " unexpected statuses");
        }
        if (s.mismatches() > 0) {
            reasons.add(phase + s.mismatches() + " mismatches");
        }
    }
}
