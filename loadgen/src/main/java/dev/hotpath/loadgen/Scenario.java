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
}
