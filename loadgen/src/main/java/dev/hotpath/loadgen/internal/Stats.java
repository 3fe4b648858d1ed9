package dev.hotpath.loadgen.internal;

import dev.hotpath.loadgen.ErrorKind;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

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
    /** Answers per second of the phase, for the throughput chart. */
    public long[] perSecond = new long[0];
    public String firstError;
    public long firstErrorAtNanos = Long.MAX_VALUE;

    void recordLatency(long nanos) {
        latency.recordValue(Math.min(HIGHEST_MICROS, Math.max(0, nanos / 1000)));
    }

    void recordSendLag(long nanos) {
        sendLag.recordValue(Math.min(HIGHEST_MICROS, Math.max(0, nanos / 1000)));
    }

    void recordGeneratorLag(long nanos) {
        generatorLag.recordValue(Math.min(HIGHEST_MICROS, Math.max(0, nanos / 1000)));
    }

    void countAnswer(int second) {
        if (second >= 0) {
            if (second >= perSecond.length) {
                perSecond = java.util.Arrays.copyOf(perSecond, Math.max(second + 1, perSecond.length * 2));
            }
            perSecond[second]++;
        }
    }

    void error(ErrorKind kind, long count, String description, long atNanos) {
        errors[kind.ordinal()] += count;
        noteFirst(kind.key() + ": " + description, atNanos);
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
        if (other.perSecond.length > perSecond.length) {
            perSecond = java.util.Arrays.copyOf(perSecond, other.perSecond.length);
        }
        for (int i = 0; i < other.perSecond.length; i++) {
            perSecond[i] += other.perSecond[i];
        }
        noteFirst(other.firstError, other.firstErrorAtNanos);
    }
}
