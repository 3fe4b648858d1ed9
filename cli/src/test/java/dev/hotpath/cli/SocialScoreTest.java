package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.loadgen.RunConfig;
import dev.hotpath.loadgen.Tally;
import dev.hotpath.loadgen.TimeScale;
import dev.hotpath.loadgen.UsersModel;
import dev.hotpath.loadgen.scenario.SocialScenario;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/** The check that a time-scaled run kept its users' rate at the peak, on the shapes of real runs. */
class SocialScoreTest {
    /** A search step: 60 s up, 30 s held, 30 s down. */
    private static final RunConfig STEP = RunConfig.users("127.0.0.1", 1, 19_000, Duration.ofSeconds(30),
        new UsersModel(Duration.ofSeconds(60), Duration.ofSeconds(30), Duration.ZERO, Duration.ZERO));
    private static final TimeScale WRITE_HEAVY_113K = TimeScale.of(113_000, 19_000);

    @Test
    void expectsTheModelsRequestRate() {
        // 320,000 realistic users: 2.17 requests per 20.5 s loop each; write-heavy users 3.5.
        TimeScale scale = TimeScale.of(320_000, 19_000);
        double realistic = SocialScenario.steadyRate(SocialScenario.Mix.REALISTIC, scale.connections(), scale.thinkScale());
        assertThat(realistic).isCloseTo(320_000 * 2.17 / 20.5, Offset.offset(1.0));
        double writeHeavy = SocialScenario.steadyRate(SocialScenario.Mix.WRITE_HEAVY, scale.connections(), scale.thinkScale());
        assertThat(writeHeavy / realistic).isCloseTo(3.5 / 2.17, Offset.offset(1e-9));
    }

    @Test
    void aRunThatKeptTheRateAtThePeakPasses() {
        double rate = SocialScenario.steadyRate(SocialScenario.Mix.WRITE_HEAVY, WRITE_HEAVY_113K.connections(),
            WRITE_HEAVY_113K.thinkScale());
        assertThat(SocialScore.keptTheRate(SocialScenario.Mix.WRITE_HEAVY, WRITE_HEAVY_113K, STEP, step(rate, 0.97 * rate)))
            .isEmpty();
    }

    /**
     * The write-heavy search of 2026-12-01: at 113,000 users the server answered about 17,500 a second
     * where its users ask 19,300, yet over the whole step (the ramps ask less) it kept 95%; its 5-minute
     * hold then failed. Judged at the peak, the step fails too.
     */
    @Test
    void aShortfallAtThePeakFailsHoweverTheRampsHideIt() {
        double rate = SocialScenario.steadyRate(SocialScenario.Mix.WRITE_HEAVY, WRITE_HEAVY_113K.connections(),
            WRITE_HEAVY_113K.thinkScale());
        assertThat(rate).isCloseTo(19_293, Offset.offset(1.0));
        List<Tally.Second> seconds = step(rate, 17_500);
        long whole = seconds.stream().mapToLong(Tally.Second::answers).sum();
        double wholeExpected = rate * (30 + 30 + 15);
        assertThat(whole / wholeExpected).as("the whole run's share, which used to pass").isGreaterThan(0.95);
        assertThat(SocialScore.keptTheRate(SocialScenario.Mix.WRITE_HEAVY, WRITE_HEAVY_113K, STEP, seconds))
            .hasValueSatisfying(reason -> assertThat(reason).contains("fell behind", "525,000 answers in the 30 s hold",
                "90.7%", "578,780"));
    }

    /**
     * The seconds of a step whose users ask {@code rate} at the peak: the ramps answered in full (the
     * demand rising to the rate over 60 s, falling over 30 s, capped at what the server serves), and
     * {@code served} a second during the 30-s hold.
     */
    private static List<Tally.Second> step(double rate, double served) {
        List<Tally.Second> seconds = new ArrayList<>();
        for (int s = 0; s < 60; s++) {
            seconds.add(new Tally.Second(Math.round(Math.min(served, rate * (s + 0.5) / 60)), 1));
        }
        for (int s = 0; s < 30; s++) {
            seconds.add(new Tally.Second(Math.round(served), 1));
        }
        for (int s = 0; s < 30; s++) {
            seconds.add(new Tally.Second(Math.round(Math.min(served, rate * (30 - s - 0.5) / 30)), 1));
        }
        return seconds;
    }
}
