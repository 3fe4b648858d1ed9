package dev.hotpath.apps.shortener.internal;

import dev.hotpath.http.HeaderArena;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The links in memory, indexed by id: what resolving needs (where the URL lies in the
 * {@link HeaderArena}, flags) in chunked arrays, everything sparse (names of aliases and protected
 * links, expiry times) in side maps. Resolving a generated code is an array index here: no hashing, no
 * allocation; the engine writes the {@code Location} straight from the arena.
 *
 * <p>Writes come from one thread, the store's writer, after each commit (publish, then acknowledge);
 * reads come from every event loop. A link becomes visible when {@link #size} is written (volatile)
 * after its slots; flags change through volatile array accesses.
 *
 * <p>Memory per link beyond its URL bytes: 2 bytes of length in the arena, 8 of arena handle, 8 of
 * creation time, 16 of visit counts (live and persisted), 1 of flags: 35 bytes. Aliases and protected
 * links add map entries; links with an expiry, one more.
 */
final class LinkTable {
    static final byte DELETED = 1;
    static final byte PROTECTED = 2;
    static final byte NAMED = 4;
    static final byte EXPIRES = 8;
    private static final int CHUNK_BITS = 16;
    private static final int CHUNK = 1 << CHUNK_BITS;
    private static final int MASK = CHUNK - 1;
    private static final VarHandle FLAGS = MethodHandles.arrayElementVarHandle(byte[].class);
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

    private final HeaderArena urls = new HeaderArena();
    private final long[][] locations;
    private final long[][] createdAt;
    private final long[][] visits;
    private final long[][] persistedVisits;
    private final byte[][] flags;
    private final Map<String, Integer> idsByName = new ConcurrentHashMap<>();
    private final Map<Integer, String> namesById = new ConcurrentHashMap<>();
    private final Map<Integer, Long> expiresAt = new ConcurrentHashMap<>();
    private final Set<String> pendingNames = ConcurrentHashMap.newKeySet();
    private volatile int size;
    private volatile int deleted;

    LinkTable(int maxLinks) {
        int chunks = (maxLinks + CHUNK - 1) >>> CHUNK_BITS;
        locations = new long[chunks][];
        createdAt = new long[chunks][];
        visits = new long[chunks][];
        persistedVisits = new long[chunks][];
        flags = new byte[chunks][];
    }

    int size() {
        return size;
    }

    int live() {
        return size - deleted;
    }

    /**
     * Adds link {@code id} (which must be the next one); writer thread only.
     *
     * @param url the normalized URL, which is also the redirect's {@code Location}
     */
    void publish(int id, String url, long created, String name, boolean isProtected, long expires,
                 long visitCount, boolean isDeleted) {
        if (id != size) {
            throw new IllegalStateException("link " + id + " published out of order, expected " + size);
        }
        int chunk = id >>> CHUNK_BITS;
        if (locations[chunk] == null) {
            locations[chunk] = new long[CHUNK];
            createdAt[chunk] = new long[CHUNK];
            visits[chunk] = new long[CHUNK];
            persistedVisits[chunk] = new long[CHUNK];
            flags[chunk] = new byte[CHUNK];
        }
        int slot = id & MASK;
        locations[chunk][slot] = urls.add(url);
        createdAt[chunk][slot] = created;
        visits[chunk][slot] = visitCount;
        persistedVisits[chunk][slot] = visitCount;
        flags[chunk][slot] = (byte) ((isProtected ? PROTECTED : 0) | (name != null ? NAMED : 0) | (isDeleted ? DELETED : 0)
            | (expires >= 0 ? EXPIRES : 0));
        if (name != null) {
            idsByName.put(name, id);
            namesById.put(id, name);
            pendingNames.remove(name);
        }
        if (expires >= 0) {
            expiresAt.put(id, expires);
        }
        if (isDeleted) {
            deleted++;
        }
        size = id + 1;
    }

    /** Marks link {@code id} deleted; writer thread only. False when it already was. */
    boolean markDeleted(int id) {
        byte[] chunk = flags[id >>> CHUNK_BITS];
        byte old = (byte) FLAGS.getVolatile(chunk, id & MASK);
        if ((old & DELETED) != 0) {
            return false;
        }
        FLAGS.setVolatile(chunk, id & MASK, (byte) (old | DELETED));
        deleted++;
        return true;
    }

    int flags(int id) {
        return (byte) FLAGS.getVolatile(flags[id >>> CHUNK_BITS], id & MASK);
    }

    /** The arena holding every link's URL. */
    HeaderArena urls() {
        return urls;
    }

    /** Link {@code id}'s URL as a handle into {@link #urls()}. */
    long location(int id) {
        return locations[id >>> CHUNK_BITS][id & MASK];
    }

    long createdAt(int id) {
        return createdAt[id >>> CHUNK_BITS][id & MASK];
    }

    /** Expiry in epoch millis, or -1. */
    long expiresAt(int id) {
        Long at = expiresAt.get(id);
        return at == null ? -1 : at;
    }

    /**
     * Whether link {@code id} (whose {@code flags} are given) has expired. Only links with an expiry
     * cost a map lookup and a clock read; the rest, one flag test.
     */
    boolean expired(int id, int flags, java.time.Clock clock) {
        if ((flags & EXPIRES) == 0) {
            return false;
        }
        long at = expiresAt(id);
        return at >= 0 && at <= clock.millis();
    }

    /** The alias or protected code of link {@code id}, or null for a link reached by its generated code. */
    String name(int id) {
        return namesById.get(id);
    }

    /** The link of an alias or protected code, or -1. */
    int findByName(String name) {
        Integer id = idsByName.get(name);
        return id == null ? -1 : id;
    }

    /** Claims a name for a create in flight; false when it is taken or claimed. */
    boolean claimName(String name) {
        return !idsByName.containsKey(name) && pendingNames.add(name);
    }

    void releaseName(String name) {
        pendingNames.remove(name);
    }

    /** The stored URL. */
    String longUrl(int id) {
        return urls.value(location(id));
    }

    void countVisit(int id) {
        LONGS.getAndAdd(visits[id >>> CHUNK_BITS], id & MASK, 1L);
    }

    long visits(int id) {
        return (long) LONGS.getVolatile(visits[id >>> CHUNK_BITS], id & MASK);
    }

    long totalVisits() {
        long total = 0;
        for (int id = 0, n = size; id < n; id++) {
            total += visits(id);
        }
        return total;
    }

    /** Sets a count read back from the store, before serving; writer thread only. */
    void restoreVisits(int id, long count) {
        visits[id >>> CHUNK_BITS][id & MASK] = count;
        persistedVisits[id >>> CHUNK_BITS][id & MASK] = count;
    }

    /** Visit counts changed since the last call, as (id, count) pairs; writer thread only. */
    void drainChangedVisits(VisitSink sink) {
        for (int id = 0, n = size; id < n; id++) {
            long now = visits(id);
            long[] persisted = persistedVisits[id >>> CHUNK_BITS];
            if (persisted[id & MASK] != now) {
                sink.accept(id, now);
                persisted[id & MASK] = now;
            }
        }
    }

    /** Makes the next {@link #drainChangedVisits} report link {@code id} again (its flush failed); writer thread only. */
    void unpersist(int id) {
        persistedVisits[id >>> CHUNK_BITS][id & MASK] = -1;
    }

    /** Receives changed visit counts. */
    interface VisitSink {
        void accept(int id, long visits);
    }
}
