package dev.hotpath.loadgen.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PeriodicWakesTest {
    private static final long START = 1_000_000_000L;

    /**
     * Drives one connection's arrivals through the timer the way {@link LoadConnection} does, on time:
     * each fire sends every arrival due by then and asks for the next one. Returns how many times the
     * timer had to be started, after checking every fire came no earlier than its arrival and at most
     * the drift bound after it.
     */
    private static int anchorsOver(double rps, int connections, int connection, int arrivals) {
        Schedule schedule = new Schedule(START, START, Long.MAX_VALUE, rps);
        PeriodicWakes wakes = new PeriodicWakes(connections * 1e9 / rps, 0);
        int anchors = 0;
        long seq = connection;
        long now = START;
        for (int i = 0; i < arrivals; i++) {
            long due = schedule.dueNanos(seq);
            if (!wakes.serves(due, due)) {
                wakes.anchoredAt(due);
                anchors++;
            }
            now = wakes.fired();
            assertThat(now).as("fire %d", i).isBetween(due, due + PeriodicWakes.MAX_DRIFT_NANOS);
            seq += connections;
        }
        return anchors;
    }

    @Test
    void aTimerAtTheArrivalsSpacingMeetsEachArrivalAndIsRarelyStartedAgain() {
        // 64 connections at 150,000 req/s: 426,666.67 ns apart, a period rounded up by 1/3 ns.
        int anchors = anchorsOver(150_000, 64, 5, 300_000);
        assertThat(anchors).isBetween(1, 300_000 / 2_000);
    }

    @Test
    void aSpacingOfWholeNanosecondsNeedsOneStartForTheWholeRun() {
        assertThat(anchorsOver(100_000, 50, 0, 100_000)).isEqualTo(1);
    }

    @Test
    void irregularRoundingOfTheScheduleIsServedByReanchoring() {
        // 7 connections at 3 req/s: 2,333,333,333.33 ns apart, the schedule's rounding varies by a nanosecond.
        assertThat(anchorsOver(3, 7, 6, 10_000)).isPositive();
    }

    @Test
    void aGatheringTimeLongerThanTheSpacingSetsThePeriod() {
        PeriodicWakes wakes = new PeriodicWakes(10_000.5, 50_000);
        assertThat(wakes.periodNanos()).isEqualTo(50_000);
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
    void aRunThatFellBehindCatchesUpThroughTheFiresItMissed() {
        PeriodicWakes wakes = new PeriodicWakes(1_000, 0);
        wakes.anchoredAt(START);
        long[] intended = {wakes.fired(), wakes.fired(), wakes.fired()};
        assertThat(intended).containsExactly(START, START + 1_000, START + 2_000);
    }
}
