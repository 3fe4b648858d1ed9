package dev.hotpath.apps.shortener.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.ObjLongConsumer;

/**
 * Visits counted on one node of the scale-out mode until the next flush logs them in PostgreSQL (a
 * row of {@code visit_log}, about once a second). A visit costs one atomic increment, in the link's
 * direct slot ({@link DirectSlots}, a hit answered from there) or on the link (see {@link #count}).
 * A flush finds the visited links where they are: those the node's {@link LocalLinks} holds by walking
 * it (a read per entry and one per direct slot), the others in a queue. Counts in a direct slot are
 * always the link's in the table: a link that leaves its slot takes them along and is handed to
 * {@link #departed}, before it can leave the table. A link goes into the
 * queue at its first visit since the last flush when it is not {@link CachedLink#resident}, and when it
 * leaves the table with visits not yet flushed ({@link #departed}). The two checks mirror each other
 * (the table clears the flag, then reads the count; a visit adds to the count, then reads the flag),
 * so at least one of them sees the other and no visit is left behind. A link queued twice is harmless:
 * a flush takes a link's count with {@code getAndSet(0)}.
 *
 * <p>A flush adds up the entries of one link (without a local cache every redirect has an entry of
 * its own) and writes the links in id order. While a failed flush waits to be sent again, new visits
 * wait here, one count per link: what waits during an outage is bounded by the links visited, not by
 * the visits.
 */
final class VisitCounts {
    private final Consumer<ObjLongConsumer<CachedLink>> residents;
    private final ConcurrentLinkedQueue<CachedLink> outside = new ConcurrentLinkedQueue<>();
    /** Entries in {@code outside}: a drain takes as many as there were when it began, so it ends under load. */
    private final AtomicInteger queued = new AtomicInteger();
    /** Set by a visit when clear, so that a visit writes it once per flush, not once per visit. */
    private volatile boolean counted;

    /** @param residents takes the visits counted in the node's table ({@link LocalLinks#takeVisits}) */
    VisitCounts(Consumer<ObjLongConsumer<CachedLink>> residents) {
        this.residents = residents;
    }

    /** Visits taken for one flush: {@code counts[i]} visits of link {@code ids[i]}, ids ascending. */
    record Drained(long[] ids, long[] counts) {
        boolean isEmpty() {
            return ids.length == 0;
        }
    }

    /** Whether any visit may wait for a flush. */
    boolean counted() {
        return counted;
    }

    /** Counts a visit of {@code link} on the link itself. */
    void count(CachedLink link) {
        if (link.addVisits(1) == 0 && !link.resident) {
            queue(link);
        }
        markCounted();
    }

    /** A visit was counted in a direct slot ({@link LocalLinks#hit}): the next flush must walk the table. */
    void markCounted() {
        if (!counted) {
            counted = true;
        }
    }

    /**
     * {@code link} left the node's table, or took its direct slot's counts along (a flush walking the
     * table meanwhile may have passed it): either way the next flush must find it here.
     */
    void departed(CachedLink link) {
        if (link.unflushedVisits() > 0) {
            queue(link);
        }
    }

    /** Takes every count since the last drain, added up per link. */
    Drained drain() {
        counted = false;
        List<Taken> taken = new ArrayList<>();
        ObjLongConsumer<CachedLink> take = (link, visits) -> taken.add(new Taken(link, visits));
        residents.accept(take);
        for (int n = queued.get(); n > 0; n--) {
            CachedLink link = outside.poll();
            queued.decrementAndGet();
            link.takeVisits(take);
        }
        taken.sort(Comparator.comparingLong(t -> t.link.id));
        long[] ids = new long[taken.size()];
        long[] counts = new long[taken.size()];
        int distinct = 0;
        for (Taken t : taken) {
            if (distinct > 0 && ids[distinct - 1] == t.link.id) {
                counts[distinct - 1] += t.visits;
            } else {
                ids[distinct] = t.link.id;
                counts[distinct++] = t.visits;
            }
        }
        return new Drained(Arrays.copyOf(ids, distinct), Arrays.copyOf(counts, distinct));
    }

    private record Taken(CachedLink link, long visits) {
    }

    private void queue(CachedLink link) {
        outside.add(link);
        queued.incrementAndGet(); // after the add: a drain never polls more than the queue holds
        counted = true; // it may have been counted before a drain that missed it
    }
}
