package dev.hotpath.loadgen.internal;

import dev.hotpath.loadgen.ErrorKind;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.IntCountsHistogram;

/**
 * Counts and latencies of one connection in one phase (warm-up or measured). Written only by the
 * connection's event loop; read by the progress line racily (a display) and merged after the loops
 * have stopped (the shutdown orders it). Latencies are recorded in microseconds up to one hour, with
 * three significant digits.
 */
public final class Stats {
    static final long HIGHEST_MICROS = TimeUnit.HOURS.toMicros(1);

    public final Histogram latency = new Histogram(HIGHEST_MICROS, 3);
    public final Histogram sendLag = new Histogram(HIGHEST_MICROS, 3);
    /** How late the generator's own wake-ups ran against when they were due (rate mode): its lag behind schedule. */
    public final Histogram generatorLag = new Histogram(HIGHEST_MICROS, 3);
    public long attempted;
    public long ok;
    public long unexpectedStatus;
    public long mismatches;
    public long dropped;
    public final long[] errors = new long[ErrorKind.values().length];
    /**
     * Answers in each second since the phase began, for the measured period's throughput chart. The
     * warm-up keeps its own too, unread: so the warm-up runs, and compiles, the code the measured
     * period runs.
     */
    public long[] perSecond = new long[0];
    /**
     * Latencies of the answers of each second (null: none), for the p99-per-second chart. Two
     * significant digits (within 1%, plenty for a chart) and int counts make each about 13 KB instead
     * of the 190 KB of a three-digit long-count histogram: about 47 MB per event loop for an hour's run
     * (warm-up and measured period together).
     */
    public AbstractHistogram[] latencyPerSecond = new AbstractHistogram[0];
    public String firstError;
    public long firstErrorAtNanos = Long.MAX_VALUE;

    /** Records {@code count} answers of {@code nanos} each, answered in second {@code second} of the phase. */
    void recordLatency(long nanos, long count, int second) {
        long micros = Math.min(HIGHEST_MICROS, Math.max(0, nanos / 1000));
        latency.recordValueWithCount(micros, count);
        growTo(second + 1);
        latencyOf(second).recordValueWithCount(micros, count);
    }

    /** The latencies of second {@code second} of the phase, made when first needed; the arrays hold it. */
    private AbstractHistogram latencyOf(int second) {
        if (latencyPerSecond[second] == null) {
            latencyPerSecond[second] = new IntCountsHistogram(HIGHEST_MICROS, 2);
        }
        return latencyPerSecond[second];
    }

    void recordSendLag(long nanos) {
        sendLag.recordValue(Math.min(HIGHEST_MICROS, Math.max(0, nanos / 1000)));
    }

    void recordGeneratorLag(long nanos) {
        generatorLag.recordValue(Math.min(HIGHEST_MICROS, Math.max(0, nanos / 1000)));
    }

    void countAnswer(int second) {
        growTo(second + 1);
        perSecond[second]++;
    }

    /** Makes the per-second arrays hold at least {@code seconds} seconds. */
    private void growTo(int seconds) {
        if (seconds > perSecond.length) {
            int length = Math.max(seconds, perSecond.length * 2);
            perSecond = Arrays.copyOf(perSecond, length);
            latencyPerSecond = Arrays.copyOf(latencyPerSecond, length);
        }
    }

    void error(ErrorKind kind, long count, String description, long atNanos) {
        errors[kind.ordinal()] += count;
        noteFirst(kind.key() + ": " + description, atNanos);
    }

    /**
     * Whether {@link #noteFirst} at {@code atNanos} would keep its description: build one only then. A
     * server that answers every request wrong would otherwise cost the generator a description (the
     * answer's text, up to 400 characters) per answer, and the collections they cause.
     */
    boolean wouldNote(long atNanos) {
        return atNanos < firstErrorAtNanos;
    }

    void noteFirst(String description, long atNanos) {
        if (atNanos < firstErrorAtNanos) {
            firstErrorAtNanos = atNanos;
            firstError = description;
        }
    }

    public long errorCount() {
        long total = 0;
        for (long e : errors) {
            total += e;
        }
        return total;
    }

    /** Adds {@code other} into this. */
    public void add(Stats other) {
        latency.add(other.latency);
        sendLag.add(other.sendLag);
        generatorLag.add(other.generatorLag);
        attempted += other.attempted;
        ok += other.ok;
        unexpectedStatus += other.unexpectedStatus;
        mismatches += other.mismatches;
        dropped += other.dropped;
        for (int i = 0; i < errors.length; i++) {
            errors[i] += other.errors[i];
        }
        growTo(other.perSecond.length);
        for (int i = 0; i < other.perSecond.length; i++) {
            perSecond[i] += other.perSecond[i];
            if (other.latencyPerSecond[i] != null) {
                latencyOf(i).add(other.latencyPerSecond[i]);
            }
        }
        noteFirst(other.firstError, other.firstErrorAtNanos);
    }
}
