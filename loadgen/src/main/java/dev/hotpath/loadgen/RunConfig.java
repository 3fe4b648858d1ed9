package dev.hotpath.loadgen;

import java.time.Duration;

/**
 * One load run: where, how paced, how long, and what makes it fail beyond the fixed rules of
 * {@link Verdict}. Validated when built, so a run never starts on a configuration that cannot mean
 * anything.
 *
 * @param host target host (a loopback address here)
 * @param port target port
 * @param mode pacing
 * @param rps target requests per second of the whole run ({@link Mode#RATE} only; 0 otherwise)
 * @param connections connections, all open before the shared start
 * @param pipeline requests in flight per connection: a batch written at once in saturate mode, the
 *     most outstanding at a time in rate mode
 * @param queue requests a connection holds when they fall due while {@code pipeline} are in flight
 *     (rate mode); one more is a counted drop
 * @param warmup run before the measured period; its answers are checked but not measured
 * @param duration measured period
 * @param drainTimeout how long after the end answers still owed are awaited before they count as timeouts
 * @param eventLoops generator threads
 * @param maxP99Millis fail when the measured p99 is above this; null for no bound
 * @param maxP95Millis fail when the measured p95 is above this; null for no bound
 * @param maxErrorRate fail when (errors + unexpected + mismatches) / attempted is above this; null for
 *     the default of zero tolerance
 * @param maxGeneratorLagMillis rate and users mode fail, naming the generator as the bottleneck, when the p99 of
 *     the lateness of its own wake-ups (to send what fell due, or a user's next request) is above this
 * @param users ramps and think times ({@link Mode#USERS} only; null otherwise); {@code connections} is
 *     the number of users and {@code duration} the hold
 */
public record RunConfig(String host, int port, Mode mode, double rps, int connections, int pipeline, int queue,
                        Duration warmup, Duration duration, Duration drainTimeout, int eventLoops,
                        Double maxP99Millis, Double maxP95Millis, Double maxErrorRate, double maxGeneratorLagMillis,
                        UsersModel users) {
    /** Requests a connection holds in rate mode unless told otherwise. */
    public static final int DEFAULT_QUEUE = 64;
    public static final double DEFAULT_MAX_GENERATOR_LAG_MILLIS = 5;
    /**
     * Users mode's bound on the generator's lateness. A late user is measured from when it really sends,
     * so lateness only thins the load: 100 ms on journeys of seconds thins it by well under 1%, and
     * absorbs the generator's own collection pauses (about 30 ms) and its JIT at the start, while a
     * generator that cannot keep up falls seconds behind and fails.
     */
    public static final double DEFAULT_USERS_MAX_GENERATOR_LAG_MILLIS = 100;

    public RunConfig {
        require(port > 0 && port < 65536, "--target port must be 1..65535");
        require(connections >= 1 && connections <= 1_000_000, "--connections must be 1..1000000");
        require(pipeline >= 1 && pipeline <= 1024, "--pipeline must be 1..1024");
        require(queue >= 0 && queue <= 1_000_000, "--queue must be 0..1000000");
        require(!duration.isNegative() && !duration.isZero(), "--duration must be positive");
        require(!warmup.isNegative(), "--warmup must not be negative");
        require(!drainTimeout.isNegative() && !drainTimeout.isZero(), "--drain-timeout must be positive");
        require(eventLoops >= 1 && eventLoops <= 256, "--event-loops must be 1..256");
        if (mode == Mode.RATE) {
            require(rps > 0 && rps <= 100_000_000 && Double.isFinite(rps), "--mode rate needs --rps above 0");
        } else {
            require(rps == 0, "--rps applies to --mode rate only");
        }
        require(maxP99Millis == null || maxP99Millis > 0, "--max-p99-ms must be positive");
        require(maxP95Millis == null || maxP95Millis > 0, "--max-p95-ms must be positive");
        require(maxErrorRate == null || maxErrorRate >= 0 && maxErrorRate < 1, "--max-error-rate must be in [0, 1)");
        require(maxGeneratorLagMillis > 0, "--max-generator-lag-ms must be positive");
        require((mode == Mode.USERS) == (users != null), "ramps and think times belong to --mode users");
        require(mode != Mode.USERS || pipeline == 1 && warmup.isZero(), "--mode users sends one request at a time and has no warm-up");
    }

    /** A saturate-mode run with defaults for everything else; for tests and verification passes. */
    public static RunConfig saturate(String host, int port, int connections, int pipeline, Duration duration) {
        return new RunConfig(host, port, Mode.SATURATE, 0, connections, pipeline, DEFAULT_QUEUE, Duration.ZERO, duration,
            Duration.ofSeconds(10), 1, null, null, null, DEFAULT_MAX_GENERATOR_LAG_MILLIS, null);
    }

    /** A rate-mode run with defaults for everything else. */
    public static RunConfig rate(String host, int port, double rps, int connections, Duration duration) {
        return new RunConfig(host, port, Mode.RATE, rps, connections, 1, DEFAULT_QUEUE, Duration.ZERO, duration,
            Duration.ofSeconds(10), 1, null, null, null, DEFAULT_MAX_GENERATOR_LAG_MILLIS, null);
    }

    /** A users-mode run: {@code users} users holding for {@code hold}, thresholds as given. */
    public static RunConfig users(String host, int port, int users, Duration hold, UsersModel model) {
        return new RunConfig(host, port, Mode.USERS, 0, users, 1, 0, Duration.ZERO, hold, Duration.ofSeconds(10), 1,
            null, null, null, DEFAULT_USERS_MAX_GENERATOR_LAG_MILLIS, model);
    }

    /** From the shared start to the last user's stop: ramp up, hold, ramp down (users mode), else warm-up and duration. */
    public Duration span() {
        return users == null ? warmup.plus(duration) : users.rampUp().plus(duration).plus(users.rampDown());
    }

    /** The same run against another server. */
    public RunConfig withTarget(String targetHost, int targetPort) {
        return new RunConfig(targetHost, targetPort, mode, rps, connections, pipeline, queue, warmup, duration, drainTimeout,
            eventLoops, maxP99Millis, maxP95Millis, maxErrorRate, maxGeneratorLagMillis, users);
    }

    public RunConfig withQueue(int size) {
        return new RunConfig(host, port, mode, rps, connections, pipeline, size, warmup, duration, drainTimeout, eventLoops,
            maxP99Millis, maxP95Millis, maxErrorRate, maxGeneratorLagMillis, users);
    }

    /** The same run with another bound on the generator's lateness (see {@code maxGeneratorLagMillis}). */
    public RunConfig withMaxGeneratorLag(double millis) {
        return new RunConfig(host, port, mode, rps, connections, pipeline, queue, warmup, duration, drainTimeout, eventLoops,
            maxP99Millis, maxP95Millis, maxErrorRate, millis, users);
    }

    public RunConfig withDrainTimeout(Duration timeout) {
        return new RunConfig(host, port, mode, rps, connections, pipeline, queue, warmup, duration, timeout, eventLoops,
            maxP99Millis, maxP95Millis, maxErrorRate, maxGeneratorLagMillis, users);
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
