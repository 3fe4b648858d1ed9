package dev.hotpath.apps.shortener.internal;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The links one node of the scale-out mode keeps in memory: a Caffeine cache (W-TinyLFU admission,
 * so a scan of one-off codes does not push out the hot links), keyed by a generated code's id
 * ({@code Long}) or by a link's name ({@code String}). A found link stays {@code ttl} (the backstop
 * for a missed invalidation), a negative entry ({@link CachedLink#ABSENT}) {@code negativeTtl}: long
 * enough that a flood of unknown codes reaches PostgreSQL once each, short enough that a link created
 * on another node is hidden no longer.
 *
 * <p>A look-up that started before a delete or an invalidation must not store what it read:
 * {@link #epoch()} before reading, {@link #fill} after; a fill that overlaps any of them is dropped.
 *
 * <p>Cost: a look-up is a hash-map read plus Caffeine's read-buffer record; an entry about 150 bytes
 * plus its redirect (about 100 bytes plus the URL).
 */
final class LocalLinks {
    private final Cache<Object, CachedLink> cache;
    private final AtomicLong invalidations = new AtomicLong();

    /** @param maximumSize 0 for no cache at all: every redirect asks Redis, then PostgreSQL */
    LocalLinks(int maximumSize, Duration ttl, Duration negativeTtl) {
        this.cache = maximumSize == 0 ? null : Caffeine.newBuilder()
            .maximumSize(maximumSize)
            .executor(Runnable::run) // evictions on the caller: no hop to the common pool and back
            .expireAfter(Expiry.<Object, CachedLink>writing((key, link) -> link.absent() ? negativeTtl : ttl))
            .build();
    }

    /** The entry for {@code key}, or null when this node does not know. */
    CachedLink get(Object key) {
        return cache == null ? null : cache.getIfPresent(key);
    }

    /** A counter that moves with every invalidation; read it before a look-up that will {@link #fill}. */
    long epoch() {
        return invalidations.get();
    }

    /**
     * Keeps what a look-up begun at {@code epoch} found, unless an invalidation came in meanwhile. A
     * negative entry never replaces a link: the look-up may have missed a create of this node.
     */
    void fill(Object key, CachedLink link, long epoch) {
        if (cache == null || invalidations.get() != epoch) {
            return;
        }
        if (link.absent()) {
            cache.asMap().putIfAbsent(key, link);
        } else {
            cache.put(key, link);
        }
        if (invalidations.get() != epoch) {
            cache.invalidate(key); // an invalidation raced the put: it may have missed what we put
        }
    }

    /** Keeps a link this node just created, replacing a negative entry. */
    void created(Object key, CachedLink link) {
        if (cache != null) {
            cache.put(key, link);
        }
    }

    /** Keeps the deleted link this node just stored; a look-up under way cannot put the live one back. */
    void deleted(Object key, CachedLink tombstone) {
        invalidations.incrementAndGet();
        if (cache != null) {
            cache.put(key, tombstone);
        }
    }

    /** Forgets {@code key}: another node changed it. */
    void invalidate(Object key) {
        invalidations.incrementAndGet();
        if (cache != null) {
            cache.invalidate(key);
        }
    }

    /** Forgets every link: invalidations may have been missed (the subscription was away). */
    void invalidateAll() {
        invalidations.incrementAndGet();
        if (cache != null) {
            cache.invalidateAll();
        }
    }

    long size() {
        return cache == null ? 0 : cache.estimatedSize();
    }
}
