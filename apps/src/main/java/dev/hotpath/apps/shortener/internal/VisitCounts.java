package dev.hotpath.apps.shortener.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Visits counted on one node of the scale-out mode until the next flush adds them to PostgreSQL
 * ({@code visits = visits + n}, about once a second). A visit costs an atomic increment on the
 * link's entry; a link's first visit since the last flush also queues the entry, so a flush reads
 * only the links that were visited, and an entry the cache evicted meanwhile is still flushed.
 */
final class VisitCounts {
    private final ConcurrentLinkedQueue<CachedLink> visited = new ConcurrentLinkedQueue<>();
    /** Entries in {@code visited}: a drain takes as many as there were when it began, so it ends under load. */
    private final AtomicInteger queued = new AtomicInteger();

    /** Visits taken for one flush: {@code counts[i]} visits of {@code links.get(i)}. */
    record Drained(List<CachedLink> links, long[] counts) {
        boolean isEmpty() {
            return links.isEmpty();
        }
    }

    /** Whether any visit waits for a flush. */
    boolean counted() {
        return queued.get() > 0;
    }

    void count(CachedLink link) {
        add(link, 1);
    }

    /** Takes every count since the last drain. */
    Drained drain() {
        List<CachedLink> links = new ArrayList<>();
        List<Long> counts = new ArrayList<>();
        for (int n = queued.get(); n > 0; n--) {
            CachedLink link = visited.poll();
            queued.decrementAndGet();
            long visits = link.unflushedVisits.getAndSet(0);
            if (visits > 0) {
                links.add(link);
                counts.add(visits);
            }
        }
        return new Drained(links, counts.stream().mapToLong(Long::longValue).toArray());
    }

    /** A flush failed: its visits count again, for the next one. */
    void restore(Drained drained) {
        for (int i = 0; i < drained.links().size(); i++) {
            add(drained.links().get(i), drained.counts()[i]);
        }
    }

    private void add(CachedLink link, long visits) {
        if (link.unflushedVisits.getAndAdd(visits) == 0) {
            visited.add(link);
            queued.incrementAndGet(); // after the add: a drain never polls more than the queue holds
        }
    }
}
