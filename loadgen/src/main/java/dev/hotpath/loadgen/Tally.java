package dev.hotpath.loadgen;

import dev.hotpath.loadgen.internal.Stats;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.AbstractHistogram;

/**
 * What one phase of a run (warm-up, measured period or verification) counted, read-only: a copy taken
 * when the run ends, so a result can be handed around and kept without anything changing it.
 *
 * @param attempted requests sent
 * @param ok answers the scenario found right
 * @param unexpectedStatus answers with a status the scenario did not expect
 * @param mismatches answers with the right status and a wrong header or body
 * @param dropped rate mode: arrivals that found the connection's queue full
 * @param errors requests lost to each kind of error (every kind present, 0 when none)
 * @param latency per answer (saturate mode: its batch's latency); rate mode from the scheduled time
 * @param sendLag rate mode: send time minus scheduled time
 * @param generatorLag rate and users mode: how late the generator's own wake-ups ran
 * @param seconds answers and their p99 in each second since the phase began (reported for the measured
 *     period only; the last seconds may be partial, or after the end while owed answers drain: see
 *     {@link RunResult#wholeSeconds()})
 * @param firstError the phase's earliest problem, or null
 */
public record Tally(long attempted, long ok, long unexpectedStatus, long mismatches, long dropped,
                    Map<ErrorKind, Long> errors, Latency latency, Latency sendLag, Latency generatorLag,
                    List<Second> seconds, String firstError) {
    public Tally {
        errors = Map.copyOf(errors);
        seconds = List.copyOf(seconds);
    }

    /**
     * One second of a phase: how many answers arrived in it, and the p99 of their latencies
     * in milliseconds (within 1%; NaN when there was no answer).
     */
    public record Second(long answers, double p99Millis) {
        static final Second SILENT = new Second(0, Double.NaN);
    }

    /** A copy of what {@code stats} counted. */
    static Tally of(Stats stats) {
        Map<ErrorKind, Long> errors = new EnumMap<>(ErrorKind.class);
        for (ErrorKind kind : ErrorKind.values()) {
            errors.put(kind, stats.errors[kind.ordinal()]);
        }
        List<Second> seconds = new ArrayList<>(stats.perSecond.length);
        for (int i = 0; i < stats.perSecond.length; i++) {
            AbstractHistogram latencies = stats.latencyPerSecond[i];
            seconds.add(new Second(stats.perSecond[i],
                latencies == null ? Double.NaN : latencies.getValueAtPercentile(99) / 1000.0));
        }
        return new Tally(stats.attempted, stats.ok, stats.unexpectedStatus, stats.mismatches, stats.dropped, errors,
            new Latency(stats.latency), new Latency(stats.sendLag), new Latency(stats.generatorLag), seconds,
            stats.firstError);
    }

    /** Requests lost to errors of {@code kind}. */
    public long errors(ErrorKind kind) {
        return errors.getOrDefault(kind, 0L);
    }

    /** Requests lost to errors of every kind. */
    public long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Answers received, right or wrong. */
    public long answered() {
        return ok + unexpectedStatus + mismatches;
    }

    /** Everything that went wrong: errors, unexpected statuses, mismatches (drops not included). */
    public long problems() {
        return errorCount() + unexpectedStatus + mismatches;
    }
}
