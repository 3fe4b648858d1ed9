package dev.hotpath.apps.shortener.internal;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Visits counted on one node of the scale-out mode until the next flush adds them to PostgreSQL
 * ({@code visits = visits + n}, about once a second). A visit costs an atomic increment on the
 * link's entry; a link's first visit since the last flush also queues the entry, so a flush reads
 * only the links that were visited, and an entry the cache evicted meanwhile is still flushed.
 *
 * <p>A flush adds up the entries of one link (without a local cache every redirect has an entry of
 * its own) and writes the links in id order, the same order on every node, so two nodes' flushes
 * never deadlock on each other's rows. A failed flush gives its counts back to one entry per link:
 * what waits during an outage is bounded by the links visited, not by the visits.
 */
final class VisitCounts {
    private final ConcurrentLinkedQueue<CachedLink> visited = new ConcurrentLinkedQueue<>();
    /** Entries in {@code visited}: a drain takes as many as there were when it began, so it ends under load. */
    private final AtomicInteger queued = new AtomicInteger();

    /**
     * Visits taken for one flush: {@code counts[i]} visits of link {@code ids[i]}, ids ascending, and an
     * entry of each link to give them back to.
     */
    record Drained(long[] ids, long[] counts, CachedLink[] links) {
        boolean isEmpty() {
            return ids.length == 0;
        }
    }

    /** Whether any visit waits for a flush. */
    boolean counted() {
        return queued.get() > 0;
    }

    void count(CachedLink link) {
        add(link, 1);
    }

    /** Takes every count since the last drain, added up per link. */
    Drained drain() {
        Map<Long, CachedLink> links = new TreeMap<>();
        Map<Long, Long> counts = new TreeMap<>();
        for (int n = queued.get(); n > 0; n--) {
            CachedLink link = visited.poll();
            queued.decrementAndGet();
            long visits = link.unflushedVisits.getAndSet(0);
            if (visits > 0) {
                links.putIfAbsent(link.id, link);
                counts.merge(link.id, visits, Long::sum);
            }
        }
        return new Drained(counts.keySet().stream().mapToLong(Long::longValue).toArray(),
            counts.values().stream().mapToLong(Long::longValue).toArray(), links.values().toArray(CachedLink[]::new));
    }

    /** A flush failed: its visits count again, for the next one. */
    void restore(Drained drained) {
        for (int i = 0; i < drained.ids().length; i++) {
            add(drained.links()[i], drained.counts()[i]);
        }
    }

    private void add(CachedLink link, long visits) {
        if (link.unflushedVisits.getAndAdd(visits) == 0) {
            visited.add(link);
            queued.incrementAndGet(); // after the add: a drain never polls more than the queue holds
        }
    }
}
