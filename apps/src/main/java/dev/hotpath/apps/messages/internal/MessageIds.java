package dev.hotpath.apps.messages.internal;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;

/**
 * Makes the server's message ids: UUIDv7 (RFC 9562 §5.7), strictly increasing within this process,
 * also for many ids in one millisecond and when the clock steps back.
 *
 * <p>How (RFC 9562 §6.2, method 1, "fixed bit-length dedicated counter"): a {@value #COUNTER_BITS}-bit
 * counter fills the 12 bits of {@code rand_a} and the top 30 bits of {@code rand_b}; the low 32 bits of
 * {@code rand_b} are random for every id. In a new millisecond the counter starts at a random value
 * whose top bit is 0 (the RFC's rollover guard: at least 2^41 ids fit in the millisecond); within the
 * same millisecond, or when the clock reads earlier than the last id, it counts up. Should it overflow,
 * the timestamp moves one millisecond ahead of the clock (the RFC allows this) and the counter starts
 * again. So an id's timestamp is never behind the last one's, and {@code created_at}, which is the id's
 * timestamp, never goes backwards either.
 *
 * <p>The random bits come from an {@code L64X128MixRandom} seeded once from {@link SecureRandom}: the
 * ids must be unguessable enough not to be enumerated, not secret, and a {@code SecureRandom} call per
 * id would cost a lock and a system call's worth of work on the event loop.
 *
 * <p>Thread-safe: {@link #next()} holds this object's lock for a few arithmetic steps; the event loops
 * that take creates share one generator, which is what makes the order process-wide.
 */
public final class MessageIds {
    static final int COUNTER_BITS = 42;
    private static final long COUNTER_LIMIT = 1L << COUNTER_BITS;
    private static final int RAND_B_COUNTER_BITS = 30;

    private final Clock clock;
    private final RandomGenerator random;
    private long lastMillis = Long.MIN_VALUE;
    private long counter;

    public MessageIds(Clock clock) {
        this(clock, RandomGeneratorFactory.of("L64X128MixRandom").create(new SecureRandom().nextLong()));
    }

    /** With a given random source: tests fix it to make the counter's start known. */
    MessageIds(Clock clock, RandomGenerator random) {
        this.clock = clock;
        this.random = random;
    }

    /** A new id, greater than every id this generator made before. */
    public synchronized MessageId next() {
        long now = clock.millis();
        if (now > lastMillis) {
            lastMillis = now;
            counter = freshCounter();
        } else if (++counter == COUNTER_LIMIT) {
            lastMillis++;
            counter = freshCounter();
        }
        long high = lastMillis << 16 | 0x7000 | counter >>> RAND_B_COUNTER_BITS;
        long low = 1L << 63 | (counter & ((1L << RAND_B_COUNTER_BITS) - 1)) << 32 | (random.nextInt() & 0xFFFF_FFFFL);
        return new MessageId(high, low);
    }

    /** Random, with the counter's top bit 0. */
    private long freshCounter() {
        return random.nextLong() >>> (64 - COUNTER_BITS + 1);
    }
}
