package dev.hotpath.loadgen;

import io.netty.buffer.ByteBuf;
import java.util.SplittableRandom;

/**
 * What a scenario sends and how it checks each answer. Shared by every connection, so it must be safe
 * to call from several event loops at once; each connection passes its own random source. A request
 * is identified by a {@code long} tag the workload chooses (a link index, a sequence number), which
 * the connection keeps with the request and hands back with its response: checking needs no lookup
 * and, for fixed requests, no allocation.
 */
public interface Workload {
    /** Returned by {@link #next} when a finite workload has nothing more to send. */
    long NO_MORE = -1;

    /** The tag of the next request, or {@link #NO_MORE}. */
    long next(SplittableRandom random);

    /** Writes the request of {@code tag} into {@code out}. */
    void write(long tag, ByteBuf out);

    /** Whether the answer to {@code tag} is right. */
    Outcome check(long tag, Answer response);

    /**
     * The workload of connection {@code connection}: this one (shared, the default), or one of its own
     * for scenarios whose next request depends on the user's earlier answers (a journey). A per-user
     * workload is used by that connection's event loop only.
     */
    default Workload forConnection(int connection) {
        return this;
    }

    /**
     * Called after each checked answer to {@code tag}, in users and saturate modes, so that a journey
     * can take its next step. Returns how long the user thinks before its next request: users mode
     * waits that long (negative: the run's think time); saturate mode, a closed loop, does not wait.
     */
    default long afterAnswer(long tag, SplittableRandom random) {
        return -1;
    }

    /** Users mode: an extra wait before the user's first request. */
    default long startDelayNanos(SplittableRandom random) {
        return 0;
    }

    /** Why the answer to {@code tag} is wrong, for the report of the first error. */
    default String describe(long tag, Answer response) {
        return "status " + response.status() + ", Location " + response.location() + ", body " + response.bodyText(200);
    }

    /**
     * What a check found. {@code PENDING}: not there yet, and that is allowed for now (a write acknowledged
     * before it was stored, re-read in a later pass of a {@link Readback}); counted as attempted only.
     */
    enum Outcome { OK, UNEXPECTED_STATUS, MISMATCH, PENDING }
}
