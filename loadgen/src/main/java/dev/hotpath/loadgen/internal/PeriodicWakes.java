package dev.hotpath.loadgen.internal;

/**
 * When a rate-mode connection's one periodic timer fires, and when that timer no longer serves its
 * arrivals and must be started again (anchored) at a new time.
 *
 * <p>Why periodic: a timer scheduled anew for every wake-up cost an allocation each (the executor's
 * task and its callback, ~80 bytes), three quarters of all the generator allocated at 150,000 req/s,
 * and the young collections they caused (14–20 ms each on the generator's one core) landed in the
 * measured period as latency. A connection's arrivals are evenly spaced ({@code connections / rps}
 * apart, see {@link Schedule}), so a timer repeating at that spacing, rounded up to whole nanoseconds,
 * meets each one; or at the gathering time when that is longer, as before.
 *
 * <p>What it costs: rounding the period up makes each fire up to a nanosecond later against its
 * arrival than the one before. Once the timer would fire more than {@link #MAX_DRIFT_NANOS} after the
 * time wanted, or before the next arrival is due (the run fell behind and caught up, or the arrival
 * spacing is irregular), it is anchored again: rounding alone does so at most once per thousand
 * wake-ups. Confined to the connection's event loop; the timer itself is the caller's.
 */
final class PeriodicWakes {
    /** How much later than wanted a fire may come before the timer is anchored again. */
    static final long MAX_DRIFT_NANOS = 1_000;

    private final long periodNanos;
    private boolean running;
    private long nextFire;

    /**
     * @param spacingNanos how far apart this connection's arrivals are due
     * @param gatherNanos the least time between two wake-ups (arrivals due in between wait for the later one)
     */
    PeriodicWakes(double spacingNanos, long gatherNanos) {
        this.periodNanos = Math.max((long) Math.ceil(spacingNanos), gatherNanos);
    }

    long periodNanos() {
        return periodNanos;
    }

    /**
     * Whether the running timer serves an arrival due at {@code due}, whose wake-up is wanted at
     * {@code wanted} ({@code >= due}): it fires no earlier than the arrival and at most
     * {@link #MAX_DRIFT_NANOS} after the wanted time.
     */
    boolean serves(long due, long wanted) {
        return running && nextFire >= due && nextFire - wanted <= MAX_DRIFT_NANOS;
    }

    /** The caller started a new timer whose first fire is at {@code at}. */
    void anchoredAt(long at) {
        running = true;
        nextFire = at;
    }

    /** The timer fired: returns when this fire was meant to happen (its lag is the generator's own). */
    long fired() {
        long intended = nextFire;
        nextFire += periodNanos;
        return intended;
    }

    /** The caller cancelled the timer. */
    void stopped() {
        running = false;
    }
}
