package dev.hotpath.loadgen.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PeriodicWakesTest {
    private static final long START = 1_000_000_000L;

    /**
     * Drives one connection's arrivals through the timer the way {@link LoadConnection}'s tick does,
     * on time: a fire sends every arrival due by then, and the next arrival asks for a wake-up at its
     * due time or one gathering time after this fire, whichever is later. Checks that every arrival
     * is sent by a fire no earlier than its due time and at most the drift bound after the wanted
     * time; returns how many times the timer had to be started.
     */
    private static int anchorsOver(double rps, int connections, int connection, long gatherNanos, int arrivals) {
        Schedule schedule = new Schedule(START, START, Long.MAX_VALUE, rps);
        PeriodicWakes wakes = new PeriodicWakes(connections * 1e9 / rps, gatherNanos);
        int anchors = 0;
        long lastFire = Long.MIN_VALUE / 2;
        long seq = connection;
        for (int i = 0; i < arrivals; i++, seq += connections) {
            long due = schedule.dueNanos(seq);
            if (due <= lastFire) {
                continue; // sent by the last fire with the others due by then
            }
            long wanted = Math.max(due, lastFire + gatherNanos);
            if (!wakes.serves(due, wanted)) {
                wakes.anchoredAt(wanted);
                anchors++;
            }
            lastFire = wakes.fired();
            assertThat(lastFire).as("the fire for arrival %d", i).isBetween(due, wanted + PeriodicWakes.MAX_DRIFT_NANOS);
        }
        return anchors;
    }

    @Test
    void aTimerAtTheArrivalsSpacingMeetsEachArrivalAndIsStartedAgainOnlyAsRoundingAddsUp() {
        // 64 connections at 150,000 req/s: 426,666.67 ns apart, the period 426,667 ns, a third of a
        // nanosecond late more at each fire, so started again about every 3,000 fires.
        assertThat(anchorsOver(150_000, 64, 5, 0, 300_000)).isBetween(90, 110);
    }

    @Test
    void aSpacingOfWholeNanosecondsNeedsOneStartForTheWholeRun() {
        assertThat(anchorsOver(100_000, 50, 0, 0, 100_000)).isEqualTo(1);
    }

    @Test
    void irregularRoundingOfTheScheduleIsServedByStartingAgain() {
        // 7 connections at 3 req/s: 2,333,333,333.33 ns apart; the schedule's own rounding makes some
        // gaps a nanosecond shorter than the rounded-up period, which the timer would then miss.
        assertThat(anchorsOver(3, 7, 6, 0, 10_000)).isGreaterThan(1);
    }

    @Test
    void withAGatheringTimeLongerThanTheSpacingEachFireSendsSeveralArrivals() {
        // 64 connections at 2,000,000 req/s: 32 µs apart, gathered for 50 µs.
        assertThat(anchorsOver(2_000_000, 64, 3, 50_000, 100_000)).isBetween(1, 100_000 / 2_000);
    }

    @Test
    void aGatheringTimeLongerThanTheSpacingSetsThePeriod() {
        assertThat(new PeriodicWakes(10_000.5, 50_000).periodNanos()).isEqualTo(50_000);
        assertThat(new PeriodicWakes(10_000.5, 0).periodNanos()).isEqualTo(10_001);
    }

    @Test
    void aTimerThatWouldFireBeforeTheArrivalOrTooLateIsNotKept() {
        PeriodicWakes wakes = new PeriodicWakes(1_000_000, 0);
        assertThat(wakes.serves(START, START)).as("nothing running").isFalse();
        wakes.anchoredAt(START);
        assertThat(wakes.fired()).isEqualTo(START);
        long next = START + 1_000_000;
        assertThat(wakes.serves(next, next)).isTrue();
        assertThat(wakes.serves(next + 1, next + 1)).as("it would fire before the arrival").isFalse();
        assertThat(wakes.serves(next - PeriodicWakes.MAX_DRIFT_NANOS - 1, next - PeriodicWakes.MAX_DRIFT_NANOS - 1))
            .as("it would fire too late").isFalse();
        wakes.stopped();
        assertThat(wakes.serves(next, next)).isFalse();
    }

    @Test
    void eachFireIsOnePeriodAfterTheOneBefore() {
        PeriodicWakes wakes = new PeriodicWakes(1_000, 0);
        wakes.anchoredAt(START);
        long[] intended = {wakes.fired(), wakes.fired(), wakes.fired()};
        assertThat(intended).containsExactly(START, START + 1_000, START + 2_000);
    }
}
