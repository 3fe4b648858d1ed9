package dev.hotpath.loadgen;

import java.time.Duration;

/**
 * The re-reading of writes that were acknowledged before they were stored (a {@code 202}: a worker
 * stores them later). After the run, {@link LoadRun} asks for {@link #nextPass()} again and again: each
 * pass re-reads every acknowledged write not found yet, in the order they were acknowledged, a pass
 * starting at least {@link LoadRun#READBACK_PASS_INTERVAL} after the one before, until none is missing
 * or {@link #deadline()} has passed since the first pass started. A re-read answering "not there yet"
 * is {@link Workload.Outcome#PENDING}; any other wrong answer counts as in a verification.
 */
public interface Readback {
    /** How long after the first pass starts a write may still be missing. */
    Duration deadline();

    /** The re-reads of every write not found yet, in acknowledgement order; null when none is missing. */
    Workload nextPass();

    /** How many writes were acknowledged. */
    long acknowledged();

    /** How many were found (right) by some pass. */
    long found();

    /** How many are still missing (every pass answered "not there yet"). */
    long missing();

    /** The earliest-acknowledged write still missing, described, or null. */
    String firstMissing();

    /** For every write found: nanoseconds from its acknowledgement to the answer of the re-read that found it. */
    long[] lagNanos();

    /**
     * The longest time, over the writes found after at least one miss, between sending the last re-read
     * that missed it and receiving the one that found it (0 when every write was found at its first re-read).
     */
    long resolutionNanos();
}
