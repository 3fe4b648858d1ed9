package dev.hotpath.loadgen;

import java.io.IOException;

/**
 * A named load: prepares the target (seeding links, minting keys), gives the {@link Workload} of the
 * run, and afterwards, when it writes, the finite workload that re-checks every acknowledged write.
 */
public interface Scenario {
    String name();

    /** Readies the target and returns what the run sends. */
    Workload prepare(RunConfig config) throws IOException;

    /** What re-checks the run's acknowledged writes (it must end by itself), or null when nothing was written. */
    default Workload verification() {
        return null;
    }

    /**
     * For writes acknowledged before they are stored ({@code 202}): the re-reading after the run, in passes
     * until every acknowledged write is found or the deadline passes; used instead of {@link #verification()}.
     * Null (the default) when the scenario's writes are readable once acknowledged.
     */
    default Readback readback() {
        return null;
    }
}
