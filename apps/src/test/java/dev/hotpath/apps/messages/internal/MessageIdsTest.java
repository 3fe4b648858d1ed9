package dev.hotpath.apps.messages.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class MessageIdsTest {
    private static final Instant NOW = Instant.parse("2026-11-30T04:00:00.123Z");

    private final MutableClock clock = new MutableClock(NOW);
    private final MessageIds ids = new MessageIds(clock, new SplittableRandom(7));

    @Test
    void idsWithinOneMillisecondStrictlyIncrease() {
        MessageId previous = ids.next();
        for (int i = 0; i < 100_000; i++) {
            MessageId id = ids.next();
            assertThat(id).as("id %d after %s", i, previous).isGreaterThan(previous);
            assertThat(id.toString()).as("its text sorts the same").isGreaterThan(previous.toString());
            previous = id;
        }
    }

    @Test
    void idsKeepIncreasingWhenTheClockStepsBack() {
        MessageId before = ids.next();
        clock.advance(Duration.ofSeconds(-5));
        MessageId after = ids.next();
        assertThat(after).isGreaterThan(before);
        assertThat(after.millis()).as("the timestamp never goes back").isEqualTo(before.millis());
    }

    @Test
    void aNewMillisecondStartsTheCounterAtARandomValueBelowHalfItsRange() {
        for (int i = 0; i < 1_000; i++) {
            clock.advance(Duration.ofMillis(1));
            MessageId id = ids.next();
            long counter = (id.high() & 0xFFF) << 30 | (id.low() >>> 32) & ((1L << 30) - 1);
            assertThat(counter).as("counter of %s", id).isLessThan(1L << (MessageIds.COUNTER_BITS - 1));
        }
    }

    @Test
    void everyIdIsVersion7WithTheRfcVariant() {
        for (int i = 0; i < 1_000; i++) {
            MessageId id = ids.next();
            assertThat(id.version()).as("%s", id).isEqualTo(7);
            assertThat(id.variant()).as("%s", id).isEqualTo(0b10);
            assertThat(id.toString().charAt(14)).isEqualTo('7');
            assertThat(id.toString().charAt(19)).isIn('8', '9', 'a', 'b');
        }
    }

    @Test
    void theTimestampFieldIsTheClocksMillisecond() {
        MessageId id = ids.next();
        assertThat(id.millis()).isEqualTo(NOW.toEpochMilli());
        assertThat(id.toString()).startsWith(String.format("%08x-%04x", NOW.toEpochMilli() >>> 16,
            NOW.toEpochMilli() & 0xFFFF));
        clock.advance(Duration.ofMillis(2));
        assertThat(ids.next().millis()).isEqualTo(NOW.toEpochMilli() + 2);
    }

    @Test
    void theRandomBitsDifferBetweenGenerators() {
        MessageIds other = new MessageIds(clock);
        MessageIds another = new MessageIds(clock);
        assertThat(other.next().low()).isNotEqualTo(another.next().low());
    }

    @Test
    void idsMadeOnManyThreadsAreAllDistinct() throws Exception {
        MessageIds shared = new MessageIds(clock);
        java.util.Set<MessageId> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 10_000; i++) {
                    seen.add(shared.next());
                }
            });
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(seen).hasSize(40_000);
    }
}
