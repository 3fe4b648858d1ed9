package dev.hotpath.apps.shortener.internal;

import dev.hotpath.http.Response;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Clock;
import java.util.function.ObjLongConsumer;

/**
 * A link as a node of the scale-out mode keeps it in memory and in Redis: its key (a generated code's
 * id, or its name), what resolving it needs (its redirect, built once, whether it is deleted, when it
 * expires) and the visits counted on this node since the last flush ({@link VisitCounts}). A negative
 * entry ({@link #absent}) says no link has the key.
 *
 * <p>It is also its own entry in the node's {@link LocalLinks}, which keeps its time there and hit
 * count on it: a look-up that is not answered from a direct slot ({@link DirectSlots}) reads one
 * object for the key, the link and the visit count (a table entry pointing at the link, and the link
 * at an {@code AtomicLong}, were two more dependent cache misses per redirect; without them a hit cost
 * 0.77 times the server CPU at 16-deep pipelining, docs/BENCHMARKS.md). Visits and hits counted in a
 * direct slot come here when the link leaves it.
 *
 * <p>In Redis a link is one string, {@code id|expires_at|deleted|url} ({@code -1} for no expiry,
 * {@code 0}/{@code 1}) under a key that carries its name, read back by {@link #parse}.
 */
final class CachedLink {
    private static final VarHandle VISITS;

    static {
        try {
            VISITS = MethodHandles.lookup().findVarHandle(CachedLink.class, "unflushedVisits", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The row's id; for a negative entry under a generated code, that code's id, else -1. */
    final long id;
    /** The alias or protected code the link is found by; null for a generated code. */
    final String name;
    final String url;
    final long expiresAt;
    final boolean deleted;
    /** The redirect to answer with; null for a negative entry. */
    final Response redirect;
    /** Visits counted here and not yet flushed to PostgreSQL; through {@link #VISITS}. */
    private volatile long unflushedVisits;
    /**
     * Whether the node's {@link LocalLinks} holds this link, where a flush finds its visits; one it does
     * not hold is queued for the flush at its first visit instead ({@link VisitCounts}).
     */
    volatile boolean resident;
    /** {@link LocalLinks}' own: until when (its clock) it holds the link, written before it is published. */
    long residentUntil;
    /** {@link LocalLinks}' own: a saturating count of hits, for its admission policy; racy on purpose. */
    int hits;

    private CachedLink(long id, String name, String url, long expiresAt, boolean deleted, Response redirect) {
        this.id = id;
        this.name = name;
        this.url = url;
        this.expiresAt = expiresAt;
        this.deleted = deleted;
        this.redirect = redirect;
    }

    /**
     * A stored link.
     *
     * @param name its alias or protected code, null for a generated code
     * @param expiresAt -1 for none
     */
    static CachedLink of(long id, String name, String url, long expiresAt, boolean deleted, int redirectStatus) {
        return new CachedLink(id, name, url, expiresAt, deleted, Response.redirect(redirectStatus, url));
    }

    /** The negative entry for {@code key}, a generated code's id ({@code Long}) or a name ({@code String}). */
    static CachedLink absent(Object key) {
        return key instanceof Long id ? new CachedLink(id, null, "", -1, true, null)
            : new CachedLink(-1, (String) key, "", -1, true, null);
    }

    /**
     * The link from its Redis form, found under {@code name} (null for a generated code), or null when
     * {@code value} is not one (a foreign or corrupt key).
     */
    static CachedLink parse(String value, String name, int redirectStatus) {
        int first = value.indexOf('|');
        int second = first < 0 ? -1 : value.indexOf('|', first + 1);
        int third = second < 0 ? -1 : value.indexOf('|', second + 1);
        if (third < 0 || third != second + 2) {
            return null;
        }
        try {
            long id = Long.parseLong(value, 0, first, 10);
            long expiresAt = Long.parseLong(value, first + 1, second, 10);
            char deleted = value.charAt(second + 1);
            if (id < 0 || (deleted != '0' && deleted != '1')) {
                return null;
            }
            return of(id, name, value.substring(third + 1), expiresAt, deleted == '1', redirectStatus);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The Redis form. */
    String format() {
        return id + "|" + expiresAt + "|" + (deleted ? '1' : '0') + "|" + url;
    }

    /** This link, marked deleted. */
    CachedLink asDeleted() {
        return new CachedLink(id, name, url, expiresAt, true, redirect);
    }

    /** Whether this is a negative entry: no link has the key. */
    boolean absent() {
        return redirect == null;
    }

    /** Whether a resolve answers 410: deleted, or past its expiry by {@code clock}. */
    boolean gone(Clock clock) {
        return deleted || (expiresAt >= 0 && clock.millis() >= expiresAt);
    }

    long unflushedVisits() {
        return unflushedVisits;
    }

    /** Adds {@code visits}; the count before. */
    long addVisits(long visits) {
        return (long) VISITS.getAndAdd(this, visits);
    }

    /** Takes every visit counted so far, leaving none, and hands them to {@code taken}; writes nothing if none. */
    void takeVisits(ObjLongConsumer<CachedLink> taken) {
        if (unflushedVisits != 0) {
            long visits = (long) VISITS.getAndSet(this, 0L);
            if (visits > 0) {
                taken.accept(this, visits);
            }
        }
    }
}
