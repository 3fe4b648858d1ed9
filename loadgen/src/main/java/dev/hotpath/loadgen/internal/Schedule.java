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

    /** Whole seconds since the measured period began, or -1 during warm-up. */
    int measuredSecond(long nanos) {
        return nanos < measureStartNanos ? -1 : (int) ((nanos - measureStartNanos) / 1_000_000_000L);
    }
}
