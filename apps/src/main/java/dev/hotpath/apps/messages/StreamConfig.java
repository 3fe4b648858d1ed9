package dev.hotpath.apps.messages;

import dev.hotpath.apps.messages.internal.StreamWorker;
import dev.hotpath.store.RedisConfig;
import java.time.Duration;
import java.util.Objects;

/**
 * The stream path of the messages service ({@code --stream}, {@code --worker}; see
 * {@code docs/MESSAGES.md}). Start from {@link #of}, which sets the worker's named defaults.
 *
 * @param redis where the stream {@code hotpath:messages} lives
 * @param worker whether this process runs a worker that stores the stream's entries
 * @param claimMinIdle another consumer's pending entry idle this long is claimed
 *     ({@link StreamWorker#CLAIM_MIN_IDLE})
 * @param recoveryInterval how often the worker re-reads its pending entries and claims idle ones
 *     ({@link StreamWorker#RECOVERY_INTERVAL})
 * @param trimInterval how often the worker measures and trims the stream ({@link StreamWorker#TRIM_INTERVAL})
 */
public record StreamConfig(RedisConfig redis, boolean worker, Duration claimMinIdle, Duration recoveryInterval,
                           Duration trimInterval) {
    public StreamConfig {
        Objects.requireNonNull(redis, "redis");
        for (Duration d : new Duration[] {claimMinIdle, recoveryInterval, trimInterval}) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("the worker's intervals must be positive, were " + claimMinIdle
                    + ", " + recoveryInterval + ", " + trimInterval);
            }
        }
    }

    public static StreamConfig of(RedisConfig redis, boolean worker) {
        return new StreamConfig(redis, worker, StreamWorker.CLAIM_MIN_IDLE, StreamWorker.RECOVERY_INTERVAL,
            StreamWorker.TRIM_INTERVAL);
    }

    public StreamConfig withTimes(Duration claimMinIdle, Duration recoveryInterval, Duration trimInterval) {
        return new StreamConfig(redis, worker, claimMinIdle, recoveryInterval, trimInterval);
    }

    StreamWorker.Settings settings() {
        return StreamWorker.Settings.defaults().withTimes(claimMinIdle, recoveryInterval, trimInterval);
    }
}
