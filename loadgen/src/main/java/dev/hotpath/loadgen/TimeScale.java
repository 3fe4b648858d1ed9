package dev.hotpath.loadgen;

import java.util.Locale;

/**
 * How {@code users} virtual users run on at most {@code maxConnections} connections: each user holds
 * its own connection while they fit; beyond, every connection carries the rate of
 * {@code users / connections} users by dividing every think time by that factor, so the server sees
 * the same request rate and burstiness from fewer sockets. A process here may hold 20,000 descriptors,
 * so 200,000 users can only be simulated this way, and every figure of such a run must say so: what it
 * held is {@link #connections()} connections, not {@link #users()}.
 */
public record TimeScale(int users, int connections) {
    public TimeScale {
        if (users < 1 || connections < 1 || connections > users) {
            throw new IllegalArgumentException("a time scale needs 1 <= connections <= users, got " + connections + " of " + users);
        }
    }

    /** {@code users} users on at most {@code maxConnections} connections. */
    public static TimeScale of(int users, int maxConnections) {
        return new TimeScale(users, Math.min(users, maxConnections));
    }

    /** Whether think times are divided at all (more users than connections). */
    public boolean scaled() {
        return connections < users;
    }

    /** Users per connection: what every think time is divided by. */
    public double factor() {
        return (double) users / connections;
    }

    /** What think times are multiplied by: {@code 1 / factor()}. */
    public double thinkScale() {
        return (double) connections / users;
    }

    /**
     * The run's size as every line and file must state it: {@code "19,000 users"}, or
     * {@code "rate of 200,000 users over 19,000 connections, think times ÷ 10.53"}.
     */
    public String describe() {
        if (!scaled()) {
            return String.format(Locale.ROOT, "%,d users", users);
        }
        return String.format(Locale.ROOT, "rate of %,d users over %,d connections, think times \u00f7 %.2f", users, connections, factor());
    }
}
