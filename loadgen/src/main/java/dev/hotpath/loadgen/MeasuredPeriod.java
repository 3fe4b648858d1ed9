package dev.hotpath.loadgen;

/**
 * Told when a run's measured period starts and when it ends, on the run's own thread and within about
 * a millisecond of each, so that a caller can measure something over exactly that period (a server's
 * CPU time, for CPU per request). When a run ends early, {@link #ended()} may come without
 * {@link #started()} having been called, or neither.
 */
public interface MeasuredPeriod {
    MeasuredPeriod NONE = new MeasuredPeriod() {
        @Override
        public void started() {
        }

        @Override
        public void ended() {
        }
    };

    void started();

    void ended();

    /** Tells both, {@code first} first. */
    static MeasuredPeriod both(MeasuredPeriod first, MeasuredPeriod second) {
        return new MeasuredPeriod() {
            @Override
            public void started() {
                first.started();
                second.started();
            }

            @Override
            public void ended() {
                first.ended();
                second.ended();
            }
        };
    }
}
