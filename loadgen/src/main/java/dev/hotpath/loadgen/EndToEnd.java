package dev.hotpath.loadgen;

import java.time.Duration;

/**
 * What the re-read passes of a {@link Readback} found after the run: how many acknowledged writes were
 * found, how many are still missing at the deadline (each fails the run; the first is named), and the
 * end-to-end lag, for each write found, from its acknowledgement to the answer of the first re-read
 * that found it. The lag is an upper bound set by the re-read schedule: the write became readable at
 * most that long after its acknowledgement, and no earlier than the last re-read that missed it, which
 * {@code resolutionMillis} bounds for the writes found after a miss.
 *
 * @param passes how many re-read passes ran
 * @param rereads how many re-reads were sent over all passes
 * @param lag from acknowledgement to found, for every write found
 * @param resolutionMillis see {@link Readback#resolutionNanos()}
 */
public record EndToEnd(Duration deadline, long acknowledged, long found, long missing, String firstMissing, int passes,
                       long rereads, Latency lag, double resolutionMillis) {
}
