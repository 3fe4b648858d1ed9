package dev.hotpath.apps.messages.internal;

import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.DoubleAdder;

/**
 * A fixed-bucket histogram recorded by one thread and read at scrape time by another, for the
 * writer's batch sizes and batch latencies. A few atomic adds per batch, nothing per request; a scrape
 * may see a batch counted in a bucket and not yet in the sum, which Prometheus tolerates.
 */
final class Buckets {
    private final double[] upperBounds;
    private final AtomicLongArray counts;
    private final DoubleAdder sum = new DoubleAdder();

    /** {@code upperBounds} ascending; a last {@code +Inf} bucket is added. */
    Buckets(double... upperBounds) {
        this.upperBounds = new double[upperBounds.length + 1];
        System.arraycopy(upperBounds, 0, this.upperBounds, 0, upperBounds.length);
        this.upperBounds[upperBounds.length] = Double.POSITIVE_INFINITY;
        this.counts = new AtomicLongArray(this.upperBounds.length);
    }

    void record(double value) {
        int bucket = 0;
        while (value > upperBounds[bucket]) {
            bucket++;
        }
        counts.incrementAndGet(bucket);
        sum.add(value);
    }

    HistogramSnapshot snapshot(String name, String help) {
        long[] each = new long[upperBounds.length];
        for (int i = 0; i < each.length; i++) {
            each[i] = counts.get(i);
        }
        return HistogramSnapshot.builder().name(name).help(help)
            .dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
                .classicHistogramBuckets(ClassicHistogramBuckets.of(upperBounds, each)).sum(sum.sum()).build())
            .build();
    }
}
