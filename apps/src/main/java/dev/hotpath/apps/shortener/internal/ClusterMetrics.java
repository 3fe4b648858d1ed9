package dev.hotpath.apps.shortener.internal;

import static dev.hotpath.apps.internal.Snapshots.counter;
import static dev.hotpath.apps.internal.Snapshots.gauge;

import dev.hotpath.apps.internal.Snapshots;
import dev.hotpath.store.GroupCommitWriter;
import dev.hotpath.store.PostgresDatabase;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

/**
 * The scale-out node's metrics, read at scrape time: resolves by tier, the Redis breaker and errors,
 * invalidations, the PostgreSQL pool and look-up errors, id blocks, the local cache, and the writer.
 */
public final class ClusterMetrics implements MultiCollector {
    private final ClusterReads reads;
    private final RedisLinks redis;
    private final PostgresDatabase database;
    private final LookupExecutor executor;
    private final IdBlocks idBlocks;
    private final GroupCommitWriter writer;
    private final LocalLinks local;

    ClusterMetrics(ClusterReads reads, RedisLinks redis, PostgresDatabase database, LookupExecutor executor,
                   IdBlocks idBlocks, GroupCommitWriter writer, LocalLinks local) {
        this.reads = reads;
        this.redis = redis;
        this.database = database;
        this.executor = executor;
        this.idBlocks = idBlocks;
        this.writer = writer;
        this.local = local;
    }

    @Override
    public MetricSnapshots collect() {
        PostgresDatabase.PoolUse pool = database.poolUse();
        MetricSnapshots.Builder snapshots = MetricSnapshots.builder()
            .metricSnapshot(CounterSnapshot.builder().name("hotpath_shortener_resolves")
                .help("Redirect look-ups by where they were answered (negative: known not to exist)")
                .dataPoint(tier("local", reads.localHits()))
                .dataPoint(tier("redis", reads.redisHits()))
                .dataPoint(tier("postgres", reads.postgresReads()))
                .dataPoint(tier("negative", reads.negativeHits()))
                .build())
            .metricSnapshot(gauge("hotpath_shortener_local_cache_entries", "Links (and negative entries) held here",
                local.size()))
            .metricSnapshot(gauge("hotpath_shortener_postgres_pool_active", "Read-pool connections in use", pool.active()))
            .metricSnapshot(gauge("hotpath_shortener_postgres_pool_idle", "Read-pool connections idle", pool.idle()))
            .metricSnapshot(gauge("hotpath_shortener_postgres_pool_waiting", "Threads waiting for a read connection",
                pool.waiting()))
            .metricSnapshot(gauge("hotpath_shortener_lookups_queued", "Look-ups waiting for a thread",
                executor.queued()))
            .metricSnapshot(counter("hotpath_shortener_postgres_errors", "Look-ups that failed in PostgreSQL",
                executor.storeErrors()))
            .metricSnapshot(counter("hotpath_shortener_id_blocks", "Blocks of ids taken from the sequence",
                idBlocks.blocksTaken()));
        if (redis != null) {
            snapshots.metricSnapshot(gauge("hotpath_shortener_redis_breaker_open",
                    "1 while Redis is skipped after a failure", redis.breaker().closed() ? 0 : 1))
                .metricSnapshot(counter("hotpath_shortener_redis_breaker_openings", "Times the Redis breaker opened",
                    redis.breaker().openings()))
                .metricSnapshot(counter("hotpath_shortener_redis_errors", "Redis commands that failed or timed out",
                    redis.breaker().errors()))
                .metricSnapshot(counter("hotpath_shortener_invalidations_sent", "Deletes announced to the other nodes",
                    redis.invalidationsSent()))
                .metricSnapshot(counter("hotpath_shortener_invalidations_received",
                    "Invalidations received from any node", redis.invalidationsReceived()));
        }
        Snapshots.writer(writer.stats()).forEach(snapshots::metricSnapshot);
        return snapshots.build();
    }

    private static CounterSnapshot.CounterDataPointSnapshot tier(String tier, long value) {
        return CounterSnapshot.CounterDataPointSnapshot.builder().labels(Labels.of("tier", tier)).value(value).build();
    }
}
