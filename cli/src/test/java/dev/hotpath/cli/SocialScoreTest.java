package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.loadgen.RunConfig;
import dev.hotpath.loadgen.TimeScale;
import dev.hotpath.loadgen.UsersModel;
import dev.hotpath.loadgen.scenario.SocialScenario;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The check that a time-scaled run kept its users' rate, on the figures of a real search. */
class SocialScoreTest {
    /** A search step: 60 s up, 30 s held, 30 s down, each user active 75 s on average. */
    private static final RunConfig STEP = RunConfig.users("127.0.0.1", 1, 19_000, Duration.ofSeconds(30),
        new UsersModel(Duration.ofSeconds(60), Duration.ofSeconds(30), Duration.ZERO, Duration.ZERO));

    @Test
    void expectsTheModelsRequestRate() {
        // 320,000 realistic users: 2.17 requests per 20.5 s loop each, 75 s active, less the first wait.
        TimeScale scale = TimeScale.of(320_000, 19_000);
        double expected = SocialScenario.expectedRequests(SocialScenario.Mix.REALISTIC, scale.connections(),
            scale.thinkScale(), 75);
        assertThat(expected).isCloseTo(2_535_390, org.assertj.core.data.Offset.offset(100.0));
        double writeHeavy = SocialScenario.expectedRequests(SocialScenario.Mix.WRITE_HEAVY, scale.connections(),
            scale.thinkScale(), 75);
        assertThat(writeHeavy / expected).isCloseTo(3.5 / 2.17, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void aRunThatKeptTheRatePasses() {
        // Measured at 320,000 users over 19,000 connections: 2,535,162 requests.
        assertThat(SocialScore.keptTheRate(SocialScenario.Mix.REALISTIC, TimeScale.of(320_000, 19_000), STEP, 2_535_162))
            .isEmpty();
    }

    @Test
    void aSaturatedServerFallsBehindAndFails() {
        // Measured at 640,000 users: 3,614,144 requests where the users would send 5.08 million; the
        // run's latency passed the SLO only because each connection waited instead of thinking.
        assertThat(SocialScore.keptTheRate(SocialScenario.Mix.REALISTIC, TimeScale.of(640_000, 19_000), STEP, 3_614_144))
            .hasValueSatisfying(reason -> assertThat(reason).contains("fell behind", "3,614,144", "71.2%", "5,075,948"));
    }
}
