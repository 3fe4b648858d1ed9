package dev.hotpath.apps.shortener.internal;

import dev.hotpath.http.Response;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A link as a node of the scale-out mode keeps it in memory and in Redis: what resolving it needs
 * (its redirect, built once, whether it is deleted, when it expires) and the visits counted on this
 * node since the last flush ({@link VisitCounts}). {@link #ABSENT} is the negative entry: no such link.
 *
 * <p>In Redis a link is one string, {@code id|expires_at|deleted|url} ({@code -1} for no expiry,
 * {@code 0}/{@code 1}), read back by {@link #parse}.
 */
final class CachedLink {
    /** No link has this code (yet). */
    static final CachedLink ABSENT = new CachedLink(-1, "", -1, true, null);

    final long id;
    final String url;
    final long expiresAt;
    final boolean deleted;
    /** The redirect to answer with; null for {@link #ABSENT}. */
    final Response redirect;
    /** Visits counted here and not yet flushed to PostgreSQL. */
    final AtomicLong unflushedVisits = new AtomicLong();
    /**
     * Whether the node's {@link LocalLinks} holds this link, where a flush finds its visits; one it does
     * not hold is queued for the flush at its first visit instead ({@link VisitCounts}).
     */
    volatile boolean resident;

    private CachedLink(long id, String url, long expiresAt, boolean deleted, Response redirect) {
        this.id = id;
        this.url = url;
        this.expiresAt = expiresAt;
        this.deleted = deleted;
        this.redirect = redirect;
    }

    /** A stored link; {@code expiresAt} -1 for none. */
    static CachedLink of(long id, String url, long expiresAt, boolean deleted, int redirectStatus) {
        return new CachedLink(id, url, expiresAt, deleted, Response.redirect(redirectStatus, url));
    }

    /** The link from its Redis form, or null when {@code value} is not one (a foreign or corrupt key). */
    static CachedLink parse(String value, int redirectStatus) {
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
            return of(id, value.substring(third + 1), expiresAt, deleted == '1', redirectStatus);
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
        return new CachedLink(id, url, expiresAt, true, redirect);
    }

    boolean absent() {
        return this == ABSENT;
    }

    /** Whether a resolve answers 410: deleted, or past its expiry by {@code clock}. */
    boolean gone(Clock clock) {
        return deleted || (expiresAt >= 0 && clock.millis() >= expiresAt);
    }
}
