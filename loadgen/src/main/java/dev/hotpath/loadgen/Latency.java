package dev.hotpath.loadgen;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

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

    /** A point of the latency-by-percentile curve: {@code percentile} (0..100) of the answers took at most {@code millis}. */
    record Point(double percentile, double millis) {
    }

    /**
     * The curve HdrHistogram plots: the latency at percentiles that close half the remaining distance
     * to 100% in 5 steps each (0, 10, 20, ..., 90, 91, ..., 99, 99.1, ...), up to the maximum.
     */
    List<Point> byPercentile() {
        List<Point> points = new ArrayList<>();
        for (HistogramIterationValue v : histogram.percentiles(5)) {
            points.add(new Point(v.getPercentileLevelIteratedTo(), v.getValueIteratedTo() / 1000.0));
        }
        return points;
    }

    /** HdrHistogram's percentile distribution table (the {@code .hgrm} format), in milliseconds. */
    public void writePercentileDistribution(PrintStream out) {
        histogram.outputPercentileDistribution(out, 5, 1000.0);
    }
}
