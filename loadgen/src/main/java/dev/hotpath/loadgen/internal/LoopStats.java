package dev.hotpath.loadgen.internal;

/** The counts of one generator event loop: its connections write them from that loop's thread only. */
public record LoopStats(Stats warmup, Stats measured) {
    public LoopStats() {
        this(new Stats(), new Stats());
    }
}
