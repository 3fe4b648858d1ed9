package dev.hotpath.loadgen.internal;

/**
 * The timeline of one run, shared by every connection: a common start (after every connection is
 * open), the end of warm-up, the end of the measured period; in rate mode, the absolute arrival time
 * of request {@code seq}: {@code start + seq / rps}, which does not depend on any response.
 *
 * @param rps requests per second of the whole run (rate mode); 0 in saturate mode
 */
public record Schedule(long startNanos, long measureStartNanos, long endNanos, double rps) {
    /** When request {@code seq} is due (rate mode). */
    public long dueNanos(long seq) {
        return startNanos + (long) (seq * 1e9 / rps);
    }

    /** How many arrivals fall in the measured period: those of seq with due in [measureStart, end). */
    public long plannedMeasured() {
        return firstSeqAtOrAfter(endNanos) - firstSeqAtOrAfter(measureStartNanos);
    }

    /** The first seq due at or after {@code nanos}. */
    long firstSeqAtOrAfter(long nanos) {
        long seq = (long) Math.ceil((nanos - startNanos) * rps / 1e9);
        while (seq > 0 && dueNanos(seq - 1) >= nanos) {
            seq--;
        }
        while (dueNanos(seq) < nanos) {
            seq++;
        }
        return seq;
    }

    /**
     * The phase of {@code nanos}: 0 in the warm-up, 1 from the measured period on. Computed without a
     * branch, as every per-request use of the phase is: a branch the warm-up never takes is compiled
     * as a trap, and at the switch the generator's hot methods were thrown back to the interpreter
     * and compiled again while arrivals kept coming, which put up to 30 ms of the generator's own lag
     * into the measured period's first seconds (docs/BENCHMARKS.md).
     */
    int phaseOf(long nanos) {
        return (int) ((measureStartNanos - 1 - nanos) >>> 63);
    }

    /** Whole seconds from the start of phase {@code phase} to {@code nanos}; 0 before it. */
    int secondOfPhase(int phase, long nanos) {
        long phaseStart = startNanos + phase * (measureStartNanos - startNanos);
        return (int) (Math.max(0, nanos - phaseStart) / 1_000_000_000L);
    }
}
