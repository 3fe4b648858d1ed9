package dev.hotpath.apps.shortener.internal;

import dev.hotpath.http.Response;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.ObjLongConsumer;

/**
 * The links one node of the scale-out mode keeps in memory, keyed by a generated code's id or by a
 * link's name (alias or protected code). A found link stays {@code ttl} (the backstop for a missed
 * invalidation), a negative entry ({@link CachedLink#absent}) {@code negativeTtl}: long enough that a
 * flood of unknown codes reaches PostgreSQL once each, short enough that a link created on another
 * node is hidden no longer.
 *
 * <p>Why not Caffeine: a redirect answered from the node must cost what the embedded mode's costs,
 * and Caffeine's per-read bookkeeping (a hash-map read, a read-buffer record and its drain, a boxed
 * key) was a quarter of the node's Java samples. Here a redirect of a generated code is answered by
 * {@link #hit} from the direct slot of its id (ids come from a sequence in blocks, so their low bits
 * spread them evenly): the slot's dense arrays hold the id, its time here, its redirect and its counts
 * ({@link DirectSlots}), so the hit reads neither a bucket nor the link. Where two ids share a direct
 * slot, the one put last holds it and the other is found in its bucket by {@link #get(long)}: a name,
 * or an id not in its direct slot, is one look at an 8-way bucket of tags (one cache line), its slot,
 * and the link, which is its own entry (it carries its key, its time here and its hit count). The direct
 * slot saved the bucket's dependent loads (with 10,000 links in a node's cache, 0.93× the server CPU
 * per 16-deep redirect, docs/BENCHMARKS.md), its dense arrays the link's line. Nothing is allocated for
 * an id. All writes take the table's lock; readers never do.
 *
 * <p>Admission (TinyLFU): when a full bucket must make room for a link just looked up, the link goes in
 * only if it was asked for (a {@link FrequencySketch} counts the look-ups) at least as often as the
 * bucket's least-hit entry was hit; an expired entry always makes room. So a scan of one-off codes
 * does not push out the hot links, and a link that becomes hot gets in after as many misses as the
 * entry it replaces had hits (at most 15). Every {@code 10 × capacity} look-ups all counts are halved.
 *
 * <p>A look-up that started before a delete or an invalidation must not store what it read:
 * {@link #epoch()} before reading, {@link #fill} after; a fill that overlaps any of them is dropped.
 *
 * <p>A link that leaves the table is handed to {@code departed} (after {@link CachedLink#resident} is
 * cleared): its visits not yet flushed must not be lost with it. So is a link that visits counted in
 * its direct slot were just moved onto, resident or not: a flush running meanwhile may have passed it.
 *
 * <p>Capacity: a link can live only in its own bucket, so a bucket can be full while the table is not;
 * half full, about 1% of the links put in find theirs full and compete for a place as above.
 *
 * <p>Cost: per entry of capacity, 16 bytes of table (tag, reference and direct slot's reference), 28
 * of the direct slot's arrays and 8 of sketch; per entry held, the link (64 bytes, its URL and its
 * redirect). The table starts at 4,096 entries and doubles up to the maximum.
 */
final class LocalLinks {
    private static final int WAYS = 8;
    private static final int FIRST_BUCKETS = 512;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(CachedLink[].class);

    private final int ways;
    private final int maxBuckets;
    private final long ttl;
    private final long negativeTtl;
    private final LongSupplier nanoTime;
    private final Consumer<CachedLink> departed;
    private final AtomicLong invalidations = new AtomicLong();
    /** Null when the node keeps no links. Replaced (never changed in place) when it grows. */
    private volatile Table table;
    private FrequencySketch sketch;
    private volatile int size;

    /**
     * @param maximumSize 0 for no cache at all: every redirect asks Redis, then PostgreSQL
     * @param nanoTime the clock entries expire by ({@code System::nanoTime} but in tests)
     * @param departed takes each link that leaves the table
     */
    LocalLinks(int maximumSize, Duration ttl, Duration negativeTtl, LongSupplier nanoTime,
               Consumer<CachedLink> departed) {
        this.ways = Math.min(WAYS, Math.max(1, maximumSize));
        this.maxBuckets = Math.max(1, maximumSize / ways);
        this.ttl = ttl.toNanos();
        this.negativeTtl = negativeTtl.toNanos();
        this.nanoTime = nanoTime;
        this.departed = departed;
        if (maximumSize > 0) {
            this.table = new Table(Math.min(FIRST_BUCKETS, maxBuckets), ways, departed);
            this.sketch = new FrequencySketch(table.slots.length);
        }
    }

    /** The link (or negative entry) for generated id {@code id}, or null when this node does not know. */
    CachedLink get(long id) {
        Table current = table;
        if (current == null) {
            return null;
        }
        CachedLink direct = current.direct.link(id);
        if (direct != null && direct.id == id && direct.name == null) {
            return live(direct);
        }
        long tag = id + 1;
        int start = current.start(hashOf(id));
        for (int i = start, end = start + ways; i < end; i++) {
            if (current.tags[i] == tag) {
                CachedLink link = (CachedLink) SLOT.getAcquire(current.slots, i);
                if (link != null && link.name == null && link.id == id) {
                    return live(link);
                }
            }
        }
        return null;
    }

    /**
     * The redirect for generated id {@code id} from its direct slot, its hit and (with
     * {@code countVisit}) its visit counted there ({@link DirectSlots#hit}); null when the slot cannot
     * answer it alone: ask {@link #get(long)}, which always can.
     */
    Response hit(long id, boolean countVisit) {
        Table current = table;
        return current == null ? null : current.direct.hit(id, nanoTime.getAsLong(), countVisit);
    }

    /** The link (or negative entry) named {@code name}, or null when this node does not know. */
    CachedLink get(String name) {
        Table current = table;
        if (current == null) {
            return null;
        }
        long hash = hashOf(name);
        long tag = tagOfName(hash);
        int start = current.start(hash);
        for (int i = start, end = start + ways; i < end; i++) {
            if (current.tags[i] == tag) {
                CachedLink link = (CachedLink) SLOT.getAcquire(current.slots, i);
                if (link != null && name.equals(link.name)) {
                    return live(link);
                }
            }
        }
        return null;
    }

    private CachedLink live(CachedLink link) {
        if (link.residentUntil - nanoTime.getAsLong() <= 0) {
            return null;
        }
        if (link.hits < FrequencySketch.MAX) {
            link.hits++; // racy on purpose: an estimate, and it stops writing once saturated
        }
        return link;
    }

    /** A counter that moves with every invalidation; read it before a look-up that will {@link #fill}. */
    long epoch() {
        return invalidations.get();
    }

    /**
     * Keeps what a look-up begun at {@code epoch} found (a link or a negative entry), unless an
     * invalidation came in meanwhile or the admission policy prefers what the bucket holds. A negative
     * entry never replaces a live link: the look-up may have missed a create of this node.
     */
    void fill(CachedLink link, long epoch) {
        if (table == null || invalidations.get() != epoch) {
            return;
        }
        synchronized (this) {
            if (invalidations.get() == epoch) { // an invalidation takes the lock too: none can slip in now
                put(link, link.absent() ? Put.IF_NONE_LIVE : Put.IF_ADMITTED);
            }
        }
    }

    /** Keeps a link this node just created, replacing a negative entry. */
    void created(CachedLink link) {
        if (table != null) {
            synchronized (this) {
                put(link, Put.ALWAYS);
            }
        }
    }

    /** Keeps the deleted link this node just stored; a look-up under way cannot put the live one back. */
    void deleted(CachedLink tombstone) {
        synchronized (this) {
            invalidations.incrementAndGet();
            if (table != null) {
                put(tombstone, Put.ALWAYS);
            }
        }
    }

    /** Forgets {@code key} (a generated code's id, {@code Long}, or a name): another node changed it. */
    void invalidate(Object key) {
        synchronized (this) {
            invalidations.incrementAndGet();
            Table current = table;
            if (current == null) {
                return;
            }
            CachedLink gone = CachedLink.absent(key);
            int start = current.start(hashOf(gone));
            for (int i = start; i < start + ways; i++) {
                CachedLink link = current.slots[i];
                if (link != null && sameKey(link, gone)) {
                    current.clear(i);
                    size--;
                    leave(link);
                }
            }
        }
    }

    /** Forgets every link: invalidations may have been missed (the subscription was away). */
    void invalidateAll() {
        synchronized (this) {
            invalidations.incrementAndGet();
            Table current = table;
            if (current == null) {
                return;
            }
            current.direct.retire();
            table = new Table(current.buckets, ways, departed);
            size = 0;
            for (CachedLink link : current.slots) {
                if (link != null) {
                    leave(link);
                }
            }
        }
    }

    /**
     * Takes the visits counted on this node's links, from their direct slots and from the links
     * themselves, handing {@code taken} each link and its count; a link may come twice. Visits counted
     * meanwhile may wait for the next call; none is taken twice or lost.
     */
    void takeVisits(ObjLongConsumer<CachedLink> taken) {
        Table current = table;
        if (current == null) {
            return;
        }
        current.direct.takeVisits(taken);
        forEachLink(link -> link.takeVisits(taken));
    }

    /** Each link the table holds now (negative entries aside); entries that come or go meanwhile may be missed. */
    void forEachLink(Consumer<CachedLink> action) {
        Table current = table;
        if (current == null) {
            return;
        }
        for (int i = 0; i < current.slots.length; i++) {
            CachedLink link = (CachedLink) SLOT.getAcquire(current.slots, i);
            if (link != null && !link.absent()) {
                action.accept(link);
            }
        }
    }

    /** Entries held, live, expired and negative. */
    long size() {
        return size;
    }

    private enum Put { ALWAYS, IF_ADMITTED, IF_NONE_LIVE }

    /** Under the lock. */
    private void put(CachedLink candidate, Put mode) {
        long now = nanoTime.getAsLong();
        long hash = hashOf(candidate);
        if (mode != Put.ALWAYS && sketch.add(hash)) {
            ageHits(table);
        }
        Table current = table;
        int start = current.start(hash);
        int free = -1;
        for (int i = start; i < start + ways; i++) {
            CachedLink held = current.slots[i];
            if (held == null) {
                free = free < 0 ? i : free;
            } else if (held == candidate) {
                held.residentUntil = residentUntil(candidate, now); // put again: only its time renewed
                current.direct.renew(held, held.residentUntil);
                return;
            } else if (sameKey(held, candidate)) {
                if (mode != Put.IF_NONE_LIVE || held.residentUntil - now <= 0) {
                    current.set(i, candidate, residentUntil(candidate, now));
                    leave(held);
                }
                return;
            }
        }
        if (free < 0 && current.buckets < maxBuckets) {
            grow(current);
            put(candidate, Put.ALWAYS); // admitted already, and a bigger table has room
            return;
        }
        if (free >= 0) {
            current.set(free, candidate, residentUntil(candidate, now));
            size++;
            if (size > current.slots.length / 4 * 3 && current.buckets < maxBuckets) {
                grow(current);
            }
            return;
        }
        int victim = start;
        int leastHits = Integer.MAX_VALUE;
        for (int i = start; i < start + ways && leastHits >= 0; i++) {
            CachedLink held = current.slots[i];
            int hits = held.residentUntil - now <= 0 ? -1
                : Math.min(FrequencySketch.MAX, held.hits + current.direct.hits(held));
            if (hits < leastHits) {
                leastHits = hits;
                victim = i;
            }
        }
        if (mode == Put.ALWAYS || leastHits < 0 || sketch.estimate(hash) >= leastHits) {
            CachedLink evicted = current.slots[victim];
            current.set(victim, candidate, residentUntil(candidate, now));
            leave(evicted);
        }
    }

    private long residentUntil(CachedLink link, long now) {
        return now + (link.absent() ? negativeTtl : ttl);
    }

    /** Under the lock: twice the buckets (at most the maximum), every entry moved over, the sketch anew. */
    private void grow(Table from) {
        from.direct.retire();
        Table to = new Table(Math.min(maxBuckets, from.buckets * 2), ways, departed);
        int kept = 0;
        for (CachedLink link : from.slots) {
            if (link == null) {
                continue;
            }
            int start = to.start(hashOf(link));
            int free = -1;
            for (int i = start; i < start + ways && free < 0; i++) {
                free = to.slots[i] == null ? i : -1;
            }
            if (free >= 0) {
                to.set(free, link, link.residentUntil);
                kept++;
            } else {
                leave(link); // an unlucky bucket: rare at under half full
            }
        }
        sketch = new FrequencySketch(to.slots.length);
        size = kept;
        table = to;
    }

    private static void ageHits(Table current) {
        for (CachedLink link : current.slots) {
            if (link != null) {
                link.hits >>= 1;
            }
        }
        current.direct.halveHits();
    }

    private void leave(CachedLink link) {
        if (!link.absent()) {
            link.resident = false;
            departed.accept(link);
        }
    }

    private static boolean sameKey(CachedLink a, CachedLink b) {
        return a.name == null ? b.name == null && a.id == b.id : a.name.equals(b.name);
    }

    private static long hashOf(CachedLink link) {
        return link.name == null ? hashOf(link.id) : hashOf(link.name);
    }

    private static long hashOf(long id) {
        return mix(id);
    }

    private static long hashOf(String name) {
        return mix(name.hashCode() ^ 0x6E61_6D65_0000_0000L);
    }

    /** The slot tag of {@code link}: its id + 1 (positive), or its name's {@link #tagOfName}. */
    private static long tagOf(CachedLink link) {
        return link.name == null ? link.id + 1 : tagOfName(hashOf(link.name));
    }

    /** Never 0 (an empty slot) and never an id's tag ({@code id + 1}, positive). */
    private static long tagOfName(long hash) {
        return hash | Long.MIN_VALUE;
    }

    /** The splitmix64 finalizer: every bit of the key moves every bit of the hash. */
    private static long mix(long x) {
        x = (x ^ (x >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        x = (x ^ (x >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return x ^ (x >>> 31);
    }

    /**
     * Buckets of {@code ways} slots side by side, each slot a link and its tag: a reader compares the
     * bucket's tags (one cache line) and reads only the link whose tag matches, then checks its key.
     */
    private static final class Table {
        final int buckets;
        final int ways;
        final long[] tags;
        final CachedLink[] slots;
        /** Each generated code's link again, at its id's direct slot, as long as its bucket holds it. */
        final DirectSlots direct;

        /** @param countsMoved takes each link that its direct slot's counts were moved onto ({@link DirectSlots}) */
        Table(int buckets, int ways, Consumer<CachedLink> countsMoved) {
            this.buckets = buckets;
            this.ways = ways;
            this.tags = new long[buckets * ways];
            this.slots = new CachedLink[buckets * ways];
            this.direct = new DirectSlots(Integer.highestOneBit(buckets * ways), countsMoved);
        }

        /** The first slot of the bucket for {@code hash}: its high half scaled to the bucket count. */
        int start(long hash) {
            return (int) (((hash >>> 32) * buckets) >>> 32) * ways;
        }

        /** Publishes {@code link} in {@code slot} (and its direct slot), held until {@code residentUntil}. */
        void set(int slot, CachedLink link, long residentUntil) {
            link.residentUntil = residentUntil; // before it can be read here
            if (!link.absent()) {
                link.resident = true; // before it can be read here: see VisitCounts
            }
            forgetDirect(slots[slot]);
            SLOT.setRelease(slots, slot, link);
            tags[slot] = tagOf(link);
            if (link.name == null && !link.absent()) {
                direct.put(link, residentUntil);
            }
        }

        void clear(int slot) {
            forgetDirect(slots[slot]);
            SLOT.setRelease(slots, slot, null);
            tags[slot] = 0;
        }

        /** {@code held} leaves its slot: it must not stay findable (or kept from the collector) by its id. */
        private void forgetDirect(CachedLink held) {
            if (held != null && held.name == null) {
                direct.remove(held);
            }
        }
    }
}
