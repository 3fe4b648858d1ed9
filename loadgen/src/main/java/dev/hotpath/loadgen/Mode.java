package dev.hotpath.loadgen;

/** How requests are paced. */
public enum Mode {
    /** Open loop: arrivals on an absolute schedule of {@code rps}, independent of the answers. */
    RATE,
    /** Closed loop: each connection sends its next batch as soon as the previous one is answered. */
    SATURATE,
    /** Virtual users, one connection each, with ramps and think times ({@link UsersModel}). */
    USERS
}
