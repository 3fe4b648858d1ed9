package dev.hotpath.store;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * An idle worker thread's rest until another thread hands it work, instead of a look every few
 * milliseconds: an idle server's group-commit writer and message lists woke 20 and 100 times a second
 * for nothing (docs/BENCHMARKS.md). The worker calls {@link #rest} when it found nothing to do; whoever
 * hands it work calls {@link #wake} after doing so. One thread rests on a {@code Rest}: its owner.
 *
 * <p>No hand-over is missed: the worker names itself as resting and then asks again whether there is
 * nothing to do; the other side hands the work over and then reads who rests. Both are volatile (or
 * the work's own synchronization), so either the worker sees the work and does not rest, or the waker
 * sees the worker and unparks it. Cost to the waker: a volatile read, and an unpark only while the
 * worker rests. A wake-up may come late and leave a spare permit, so the worker's next park may return
 * at once: its caller must tolerate a park that ends early, as every {@link LockSupport} caller must.
 */
public final class Rest {
    private volatile Thread resting;

    /**
     * Parks the calling thread for at most {@code nanos}, or until {@link #wake}, unless
     * {@code nothingToDo} (asked once the thread is named as resting) says there is work now.
     */
    public void rest(long nanos, BooleanSupplier nothingToDo) {
        resting = Thread.currentThread();
        try {
            if (nothingToDo.getAsBoolean()) {
                LockSupport.parkNanos(this, nanos);
            }
        } finally {
            resting = null;
        }
    }

    /** Unparks the resting thread, if one rests; call after handing it the work. */
    public void wake() {
        Thread worker = resting;
        if (worker != null) {
            LockSupport.unpark(worker);
        }
    }

    /** Whether a thread rests now, for a test to wait for. */
    public boolean resting() {
        return resting != null;
    }
}
