package dev.hotpath.apps.shortener.internal;

import dev.hotpath.http.Response;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Consumer;
import java.util.function.ObjLongConsumer;

/**
 * The direct slots of one {@link LocalLinks} table: each generated id has one (its low bits), which
 * holds the last link put there whose id has them, and beside that link, in dense arrays, what a hit
 * reads: the id, until when the table holds it, its prepared redirect, and a stamp that carries the
 * visits and hits counted there. So a redirect answered from the node reads three array elements and
 * the redirect, never the {@link CachedLink}: with 10,000 links cached, a hit read the link's line
 * (and wrote its visit count and hit count into it) on top of the redirect's, and that line was where
 * a scratch A/B found the node's extra cost over the embedded mode's. Answered from here, a 16-deep
 * hit costs the node 0.82× the CPU it did (0.91× with both servers warm; docs/BENCHMARKS.md).
 *
 * <p>The stamp (a {@code long}): bits 32 to 63 a generation, odd while a writer changes the slot, bits
 * 28 to 31 the hits since the slot changed (saturating at {@link FrequencySketch#MAX}), bits 0 to 27
 * the visits counted there and not yet taken. A hit reads the stamp, then the slot, then adds its
 * visit and hit to the stamp with a compare-and-set that holds only while the generation is the one
 * it read (a writer's first step moves the generation; another hit's count or a flush's take does not,
 * and the hit tries again on the stamp it found); a hit with nothing to count (a {@code HEAD} of a link
 * whose hits are saturated) checks the generation again instead. So a visit is never counted on a
 * link that no longer holds the slot, and a hit never answers with a redirect read half-way through a
 * change. A hit that finds the slot changing, its generation moved or its count full returns null, and
 * the caller takes the slow path through the link itself, which is always right.
 *
 * <p>What a slot counted goes to its link when a writer changes the slot ({@link #begin}: the link
 * that left keeps its visits and hits, and is handed to {@code countsMoved}, since a flush running
 * meanwhile may have walked past it), or to a flush ({@link #takeVisits}). A table that is replaced is
 * {@link #retire}d first: every slot left changing, its counts moved to the links, so a reader still
 * holding it falls back to the slow path.
 *
 * <p>Only links that never expire and are not deleted get a fast hit (the id element is -1 for the
 * others): a hit then answers the redirect with no clock read or check but the table's own time.
 * Writes (all but a hit and a flush) run under the table's lock. Cost per slot: 24 bytes of longs and
 * a reference for the redirect, beside the link's reference.
 */
final class DirectSlots {
    private static final VarHandle LINKS = MethodHandles.arrayElementVarHandle(CachedLink[].class);
    private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);
    /** Longs per slot: stamp, id, resident-until; unpadded, so a quarter of the slots straddle a line. */
    private static final int STRIDE = 3;
    private static final int ID = 1;
    private static final int UNTIL = 2;
    private static final long COUNT_MASK = (1L << 28) - 1;
    private static final int HIT_SHIFT = 28;
    private static final long HIT = 1L << HIT_SHIFT;
    private static final long HIT_MASK = (long) FrequencySketch.MAX << HIT_SHIFT;
    /** The generation's low bit: set while a writer changes the slot, for good in a retired table. */
    private static final long CHANGING = 1L << 32;
    private static final long NO_ID = -1;

    private final CachedLink[] links;
    private final long[] words;
    private final Response[] redirects;
    private final int mask;
    private final Consumer<CachedLink> countsMoved;

    /**
     * @param slots a power of two
     * @param countsMoved takes each link that visits counted in its slot were moved onto
     *     ({@link VisitCounts#departed}: the next flush must find them)
     */
    DirectSlots(int slots, Consumer<CachedLink> countsMoved) {
        this.countsMoved = countsMoved;
        this.links = new CachedLink[slots];
        this.words = new long[slots * STRIDE];
        this.redirects = new Response[slots];
        this.mask = slots - 1;
        for (int slot = 0; slot < slots; slot++) {
            words[slot * STRIDE + ID] = NO_ID;
        }
    }

    /**
     * The redirect of generated id {@code id} when its slot answers it at {@code now} (the table's
     * clock), its hit counted and, with {@code countVisit}, its visit; null sends the caller to the
     * slow path. Lock-free: see the class comment.
     */
    Response hit(long id, long now, boolean countVisit) {
        int slot = slotOf(id);
        int at = slot * STRIDE;
        long stamp = (long) WORDS.getAcquire(words, at);
        if ((stamp & CHANGING) != 0 || words[at + ID] != id || words[at + UNTIL] - now <= 0
            || (countVisit && (stamp & COUNT_MASK) == COUNT_MASK)) {
            return null;
        }
        Response redirect = redirects[slot];
        long visit = countVisit ? 1 : 0;
        VarHandle.acquireFence(); // the slot's reads above happen before the stamp is checked again
        while (true) {
            long delta = visit + ((stamp & HIT_MASK) != HIT_MASK ? HIT : 0);
            long found = delta == 0 ? (long) WORDS.getVolatile(words, at)
                : (long) WORDS.compareAndExchange(words, at, stamp, stamp + delta);
            if (found >>> 32 != stamp >>> 32) {
                return null; // a writer began: what was read may not be this id's any more
            }
            if (delta == 0 || found == stamp) {
                return redirect;
            }
            stamp = found; // another hit counted, or a flush took the count: same link, try again
            if (countVisit && (stamp & COUNT_MASK) == COUNT_MASK) {
                return null;
            }
        }
    }

    /** The link in the direct slot of {@code id}, which may be another id's (the caller checks). */
    CachedLink link(long id) {
        return (CachedLink) LINKS.getAcquire(links, slotOf(id));
    }

    /** Under the lock: {@code link} (a generated code's, not a negative entry) takes its slot until {@code until}. */
    void put(CachedLink link, long until) {
        int slot = slotOf(link.id);
        long stamp = begin(slot);
        boolean fast = link.expiresAt < 0 && !link.deleted;
        LINKS.setRelease(links, slot, link); // may take the place of another id's: that one is still in its bucket
        words[slot * STRIDE + ID] = fast ? link.id : NO_ID;
        words[slot * STRIDE + UNTIL] = until;
        redirects[slot] = fast ? link.redirect : null;
        end(slot, stamp);
    }

    /** Under the lock: {@code held} leaves its bucket, so it must not stay findable (or reachable) by its id. */
    void remove(CachedLink held) {
        int slot = slotOf(held.id);
        if (links[slot] == held) {
            long stamp = begin(slot);
            LINKS.setRelease(links, slot, null);
            words[slot * STRIDE + ID] = NO_ID;
            redirects[slot] = null;
            end(slot, stamp);
        }
    }

    /** Under the lock: {@code link}'s time here renewed, where it holds its slot (same link: no change to fence). */
    void renew(CachedLink link, long until) {
        int slot = slotOf(link.id);
        if (links[slot] == link) {
            WORDS.setOpaque(words, slot * STRIDE + UNTIL, until);
        }
    }

    /** The hits counted in the slot {@code link} holds since it took it (0 where it holds none). */
    int hits(CachedLink link) {
        int slot = slotOf(link.id);
        return links[slot] == link ? hitsOf((long) WORDS.getVolatile(words, slot * STRIDE)) : 0;
    }

    /** Under the lock: every slot's hit count halved, as the admission policy ages its counts. */
    void halveHits() {
        for (int at = 0; at < words.length; at += STRIDE) {
            long stamp;
            long halved;
            do {
                stamp = (long) WORDS.getVolatile(words, at);
                halved = (stamp & ~HIT_MASK) | ((long) (hitsOf(stamp) >> 1) << HIT_SHIFT);
            } while (stamp != halved && !WORDS.compareAndSet(words, at, stamp, halved));
        }
    }

    /** Under the lock, before the table is replaced: every slot left changing, its counts moved to its link. */
    void retire() {
        for (int slot = 0; slot < links.length; slot++) {
            begin(slot);
        }
    }

    /** Takes the visits counted in each slot, handing {@code taken} each link and its count. Lock-free. */
    void takeVisits(ObjLongConsumer<CachedLink> taken) {
        for (int slot = 0; slot < links.length; slot++) {
            int at = slot * STRIDE;
            long stamp = (long) WORDS.getVolatile(words, at);
            while ((stamp & CHANGING) == 0 && (stamp & COUNT_MASK) != 0) {
                // The stamp's own link: a change of owner would have moved the generation, failing the CAS.
                CachedLink owner = (CachedLink) LINKS.getAcquire(links, slot);
                if (WORDS.compareAndSet(words, at, stamp, stamp & ~COUNT_MASK)) {
                    taken.accept(owner, stamp & COUNT_MASK);
                    break;
                }
                stamp = (long) WORDS.getVolatile(words, at);
            }
        }
    }

    int slotOf(long id) {
        return (int) id & mask;
    }

    /**
     * Marks {@code slot} changing, so that no hit on it succeeds until {@link #end}, and moves what it
     * counted to the link that held it; the stamp it left.
     */
    private long begin(int slot) {
        int at = slot * STRIDE;
        long stamp;
        long changing;
        do {
            stamp = (long) WORDS.getVolatile(words, at);
            assert (stamp & CHANGING) == 0 : "slot " + slot + " is changing already";
            changing = (stamp + CHANGING) & ~(COUNT_MASK | HIT_MASK);
        } while (!WORDS.compareAndSet(words, at, stamp, changing));
        CachedLink held = links[slot];
        if (held != null) {
            long visits = stamp & COUNT_MASK;
            if (visits > 0) {
                held.addVisits(visits);
                countsMoved.accept(held);
            }
            held.hits = Math.min(FrequencySketch.MAX, held.hits + hitsOf(stamp));
        }
        return changing;
    }

    private void end(int slot, long changing) {
        WORDS.setRelease(words, slot * STRIDE, changing + CHANGING);
    }

    private static int hitsOf(long stamp) {
        return (int) ((stamp & HIT_MASK) >>> HIT_SHIFT);
    }
}
