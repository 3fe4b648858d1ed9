package dev.hotpath.store;

/**
 * Stopping a thread that owns a connection. Its owner may close the connection only once the thread
 * is dead, so an interrupt must not cut the wait short: it is remembered and handed back, to be
 * restored after the connection is closed (restoring it before would make some drivers abort the
 * close itself).
 */
public final class OwnedThreads {
    private OwnedThreads() {
    }

    /**
     * Waits until {@code thread} has ended, through any interrupt.
     *
     * @return whether the caller was interrupted while waiting; restore it with
     *     {@code Thread.currentThread().interrupt()} once the thread's resources are released
     * @throws IllegalStateException when {@code thread} is the caller: it would wait for ever (an owner
     *     closed from a callback on its own thread), so it is refused at once
     */
    public static boolean awaitEnd(Thread thread) {
        if (thread == Thread.currentThread()) {
            throw new IllegalStateException("a thread cannot wait for its own end: " + thread.getName());
        }
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        return interrupted;
    }
}
