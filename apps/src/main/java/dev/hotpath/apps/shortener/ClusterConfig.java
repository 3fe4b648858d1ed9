package dev.hotpath.apps.shortener;

import dev.hotpath.store.PostgresConfig;
import dev.hotpath.store.RedisConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How to run a node of the scale-out shortener ({@code hotpath serve shortener --store ...}; see
 * {@code docs/SCALE-OUT.md}).
 *
 * @param common the flags both modes share (public base, codes, max batch, redirect status, denied
 *     hosts, metrics token, clock); its data directory, durability and link limit belong to the
 *     embedded mode and are not read here
 * @param store PostgreSQL, the source of truth; its statement timeout is {@code --store-timeout}
 * @param cache Redis, the cache all nodes share, or null for none; its command timeout is
 *     {@code --cache-timeout}
 * @param localCacheSize most links this node keeps in memory; 0 for none (every redirect asks Redis)
 * @param localCacheTtl how long this node keeps a link before asking again: the bound on a missed
 *     invalidation (a delete while Redis was down)
 * @param keyFile where a node that creates the first API key writes it
 * @param visitFoldInterval how often this node moves the logged visits of every node into
 *     {@code links.visits} ({@code --visit-fold-interval}): how late a reader of the table with SQL
 *     sees them. A fold updates one row per link visited since the last one, so a minute of them costs
 *     what one second's flush did before the log; API reads fold first whatever the interval.
 */
public record ClusterConfig(ShortenerConfig common, PostgresConfig store, RedisConfig cache, Role role,
                            int localCacheSize, Duration localCacheTtl, Path keyFile, Duration visitFoldInterval) {
    public static final int DEFAULT_LOCAL_CACHE_SIZE = 1_000_000;
    public static final Duration DEFAULT_LOCAL_CACHE_TTL = Duration.ofSeconds(60);
    public static final Duration DEFAULT_VISIT_FOLD_INTERVAL = Duration.ofSeconds(60);

    /** With the default {@link #DEFAULT_VISIT_FOLD_INTERVAL}. */
    public ClusterConfig(ShortenerConfig common, PostgresConfig store, RedisConfig cache, Role role,
                         int localCacheSize, Duration localCacheTtl, Path keyFile) {
        this(common, store, cache, role, localCacheSize, localCacheTtl, keyFile, DEFAULT_VISIT_FOLD_INTERVAL);
    }

    public ClusterConfig {
        Objects.requireNonNull(common, "common");
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(localCacheTtl, "localCacheTtl");
        Objects.requireNonNull(keyFile, "keyFile");
        Objects.requireNonNull(visitFoldInterval, "visitFoldInterval");
        if (localCacheSize < 0) {
            throw new IllegalArgumentException("--local-cache-size must be 0 (none) or more, was " + localCacheSize);
        }
        if (localCacheTtl.toMillis() < 1) {
            throw new IllegalArgumentException("--local-cache-ttl must be at least 1ms, was " + localCacheTtl);
        }
        if (visitFoldInterval.toMillis() < 1) {
            throw new IllegalArgumentException("--visit-fold-interval must be at least 1ms, was " + visitFoldInterval);
        }
    }
}
