package dev.hotpath.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/** Pauses fed by hand to a {@link GeneratorPauses} that does not listen: a real collection cannot slip in. */
class GeneratorPausesTest {
    @Test
    void countsOnlyThePausesThatBeganInsideTheMeasuredPeriod() {
        try (GeneratorPauses pauses = new GeneratorPauses()) {
            long before = ManagementFactory.getRuntimeMXBean().getUptime();
            pauses.pause(before, 500); // no period yet
            pauses.started();
            long inside = ManagementFactory.getRuntimeMXBean().getUptime();
            pauses.pause(before - 1, 400); // began before the period
            pauses.pause(inside, 7);
            pauses.pause(inside, 30);
            pauses.ended();
            pauses.pause(ManagementFactory.getRuntimeMXBean().getUptime() + 10_000, 900); // after it
            assertThat(pauses.summary()).isEqualTo(new GeneratorPauses.Summary(2, 37, 30));
        }
    }

    @Test
    void aRunWithoutAPeriodCountsNothing() {
        try (GeneratorPauses pauses = new GeneratorPauses()) {
            pauses.pause(ManagementFactory.getRuntimeMXBean().getUptime(), 12);
            assertThat(pauses.summary()).isEqualTo(new GeneratorPauses.Summary(0, 0, 0));
        }
    }
}
