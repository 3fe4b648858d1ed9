package dev.hotpath.loadgen;

import java.io.PrintStream;
import org.HdrHistogram.Histogram;

/**
 * A read-only latency distribution of one phase of a run, in milliseconds: percentiles, maximum,
 * count, and the HdrHistogram percentile table. It holds its own copy of the recorded histogram (a few
 * hundred kilobytes at three significant digits up to an hour), taken once when the run ends, so
 * nothing a caller does can change a result.
 */
public final class Latency {
    private final Histogram histogram;

    /** Copies {@code recorded}, in microseconds. */
    Latency(Histogram recorded) {
        this.histogram = recorded.copy();
    }

    /** How many latencies were recorded. */
    public long count() {
        return histogram.getTotalCount();
    }

    /** The latency at {@code percentile} (0..100), in milliseconds; 0 when nothing was recorded. */
    public double millisAt(double percentile) {
        return histogram.getValueAtPercentile(percentile) / 1000.0;
    }

    public double maxMillis() {
        return histogram.getMaxValue() / 1000.0;
    }

    /** HdrHistogram's percentile distribution table (the {@code .hgrm} format), in milliseconds. */
    public void writePercentileDistribution(PrintStream out) {
        histogram.outputPercentileDistribution(out, 5, 1000.0);
    }
}
