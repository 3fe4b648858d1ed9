package dev.hotpath.http.internal;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counters of one event loop. Only that loop's thread writes them, with a plain read and an opaque
 * write (no lock, no CAS, no contended cache line); a scrape reads every loop's counters and adds
 * them up. A scrape may miss increments of the last nanoseconds, never count one twice.
 */
public final class LoopCounters {
    /** Connection-level events counted per loop. */
    public enum Event { CONNECTION_OPENED, CONNECTION_REFUSED, IDLE_CLOSED, OVERLOADED, HANDLER_FAILED }

    private final AtomicLongArray statuses = new AtomicLongArray(600);
    private final AtomicLongArray rejections = new AtomicLongArray(Rejection.values().length);
    private final AtomicLongArray events = new AtomicLongArray(Event.values().length);

    void countStatus(int status) {
        statuses.setOpaque(status, statuses.getPlain(status) + 1);
    }

    void countRejection(Rejection rejection) {
        rejections.setOpaque(rejection.ordinal(), rejections.getPlain(rejection.ordinal()) + 1);
    }

    void count(Event event) {
        events.setOpaque(event.ordinal(), events.getPlain(event.ordinal()) + 1);
    }

    long status(int status) {
        return statuses.getOpaque(status);
    }

    long rejections(Rejection rejection) {
        return rejections.getOpaque(rejection.ordinal());
    }

    long events(Event event) {
        return events.getOpaque(event.ordinal());
    }
}
