package dev.hotpath.loadgen.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The timeline's phases and seconds, including near the ends of {@code System.nanoTime}'s range. */
class ScheduleTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void aTimeBeforeTheMeasuredPeriodIsWarmUpAndFromItsFirstNanosecondOnMeasured() {
        long[] starts = {0, -5 * SECOND, Long.MAX_VALUE - 100 * SECOND, Long.MIN_VALUE + SECOND,
            Long.MAX_VALUE - 5 * SECOND}; // the last: the measured period begins past the wrap, at a negative value
        for (long start : starts) {
            Schedule schedule = new Schedule(start, start + 10 * SECOND, start + 20 * SECOND, 1000);
            assertThat(schedule.phaseOf(start)).as("start %d", start).isZero();
            assertThat(schedule.phaseOf(start + 10 * SECOND - 1)).as("start %d", start).isZero();
            assertThat(schedule.phaseOf(start + 10 * SECOND)).as("start %d", start).isEqualTo(1);
            assertThat(schedule.phaseOf(start + 25 * SECOND)).as("start %d, after the end", start).isEqualTo(1);
        }
    }

    @Test
    void secondsCountFromTheStartOfTheirOwnPhase() {
        long start = -3 * SECOND;
        Schedule schedule = new Schedule(start, start + 10 * SECOND, start + 20 * SECOND, 1000);
        assertThat(schedule.secondOfPhase(0, start)).isZero();
        assertThat(schedule.secondOfPhase(0, start + 2 * SECOND + 1)).isEqualTo(2);
        assertThat(schedule.secondOfPhase(0, start + 10 * SECOND + 5)).as("a warm-up arrival answered later").isEqualTo(10);
        assertThat(schedule.secondOfPhase(1, start + 10 * SECOND)).isZero();
        assertThat(schedule.secondOfPhase(1, start + 13 * SECOND - 1)).isEqualTo(2);
        assertThat(schedule.secondOfPhase(1, start + 9 * SECOND)).as("before the phase").isZero();
    }
}
