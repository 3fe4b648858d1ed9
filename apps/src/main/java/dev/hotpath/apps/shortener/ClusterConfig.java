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
 */
public record ClusterConfig(ShortenerConfig common, PostgresConfig store, RedisConfig cache, Role role,
                            int localCacheSize, Duration localCacheTtl, Path keyFile) {
    public static final int DEFAULT_LOCAL_CACHE_SIZE = 1_000_000;
    public static final Duration DEFAULT_LOCAL_CACHE_TTL = Duration.ofSeconds(60);

    public ClusterConfig {
        Objects.requireNonNull(common, "common");
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(localCacheTtl, "localCacheTtl");
        Objects.requireNonNull(keyFile, "keyFile");
        if (localCacheSize < 0) {
            throw new IllegalArgumentException("--local-cache-size must be 0 (none) or more, was " + localCacheSize);
        }
        if (localCacheTtl.toMillis() < 1) {
            throw new IllegalArgumentException("--local-cache-ttl must be at least 1ms, was " + localCacheTtl);
        }
    }
}
