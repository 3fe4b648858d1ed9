package dev.hotpath.store;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * An idle worker thread's rest until another thread hands it work, instead of a look every few
 * milliseconds: an idle server's writer and lists woke 20 and 100 times a second for nothing, about
 * 0.5% and 2.3% of a core on the project's benchmark machine (docs/BENCHMARKS.md). The worker calls {@link #rest} when it found
 * nothing to do; whoever hands it work calls {@link #wake} after doing so.
 *
 * <p>No hand-over is missed: the worker raises its flag and then asks again whether there is nothing to
 * do, the other side hands the work over and then reads the flag. Both are volatile (or the work's own
 * synchronization), so either the worker sees the work and does not rest, or the waker sees the flag
 * and unparks it. Cost to the waker: a volatile read, and an unpark only while the worker rests. A
 * wake-up may come late and leave a spare permit, so the worker's next park may return at once: its
 * caller must tolerate a park that ends early, as every {@link LockSupport} caller must.
 */
public final class Rest {
    private volatile boolean resting;

    /**
     * Parks the calling thread for at most {@code nanos}, or until {@link #wake}, unless
     * {@code nothingToDo} (asked after the flag is raised) says there is work now.
     */
    public void rest(long nanos, BooleanSupplier nothingToDo) {
        resting = true;
        try {
            if (nothingToDo.getAsBoolean()) {
                LockSupport.parkNanos(this, nanos);
            }
        } finally {
            resting = false;
        }
    }

    /** Unparks {@code worker} if it rests; call after handing it the work. */
    public void wake(Thread worker) {
        if (resting) {
            LockSupport.unpark(worker);
        }
    }

    /** Whether the worker rests now, for a test to wait for. */
    public boolean resting() {
        return resting;
    }
}
