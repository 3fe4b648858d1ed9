package dev.hotpath.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.loadgen.CapacitySearch.Phase;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class CapacitySearchTest {
    private static final Duration STEP = Duration.ofSeconds(60);
    private static final Duration HOLD = Duration.ofMinutes(5);
    private static final CapacitySearch.Plan PLAN =
        new CapacitySearch.Plan(1000, Duration.ofMinutes(2), 2500, 250, STEP, HOLD, 10_000_000);

    /** Runs the search against a server that passes exactly the levels {@code passes} accepts. */
    private static List<String> search(CapacitySearch.Plan plan, Predicate<CapacitySearch.Step> passes,
                                       int[] score) throws IOException {
        List<String> heard = new ArrayList<>();
        CapacitySearch.Score result = new CapacitySearch(plan).run(
            step -> new CapacitySearch.Outcome(passes.test(step), "ran"),
            run -> heard.add(run.step().phase().label() + " " + run.step().users() + " " + (run.outcome().pass() ? "pass" : "fail")));
        assertThat(result.runs()).hasSize(heard.size());
        score[0] = result.users();
        return heard;
    }

    @Test
    void doublesThenBisectsToTheResolutionThenHoldsTheLastPass() throws IOException {
        int[] score = new int[1];
        List<String> runs = search(PLAN, step -> step.users() <= 13_000, score);
        assertThat(runs).containsExactly("warm-up 1000 pass",
            "doubling 2500 pass", "doubling 5000 pass", "doubling 10000 pass", "doubling 20000 fail",
            "bisection 15000 fail", "bisection 12500 pass", "bisection 13750 fail", "bisection 13000 pass",
            "bisection 13250 fail", "hold 13000 pass");
        assertThat(score[0]).isEqualTo(13_000);
    }

    @Test
    void aFailedHoldStepsDownByTheResolutionUntilOnePasses() throws IOException {
        int[] score = new int[1];
        // Short runs pass up to 5,000; the five-minute hold only up to 4,500.
        List<String> runs = search(PLAN, step -> step.users() <= (step.hold().equals(HOLD) ? 4_500 : 5_000), score);
        assertThat(runs).containsExactly("warm-up 1000 pass",
            "doubling 2500 pass", "doubling 5000 pass", "doubling 10000 fail",
            "bisection 7500 fail", "bisection 6250 fail", "bisection 5500 fail", "bisection 5250 fail",
            "hold 5000 fail", "hold 4750 fail", "hold 4500 pass");
        assertThat(score[0]).isEqualTo(4_500);
    }

    @Test
    void aServerThatFailsTheFirstLevelIsBisectedTowardsZero() throws IOException {
        int[] score = new int[1];
        List<String> runs = search(PLAN, step -> step.phase() == Phase.WARM_UP || step.users() <= 700, score);
        assertThat(runs).containsExactly("warm-up 1000 pass", "doubling 2500 fail",
            "bisection 1250 fail", "bisection 500 pass", "bisection 750 fail", "hold 500 pass");
        assertThat(score[0]).isEqualTo(500);
    }

    @Test
    void noPassingHoldScoresZero() throws IOException {
        int[] score = new int[1];
        List<String> runs = search(PLAN, step -> step.phase() != Phase.HOLD && step.users() <= 300, score);
        assertThat(runs).endsWith("bisection 250 pass", "hold 250 fail");
        assertThat(score[0]).isZero();
    }

    @Test
    void theMaximumBoundsTheDoublingAndMarksTheScoreAsCapped() throws IOException {
        CapacitySearch.Plan capped = new CapacitySearch.Plan(0, Duration.ZERO, 2500, 250, STEP, HOLD, 8000);
        List<String> heard = new ArrayList<>();
        CapacitySearch.Score result = new CapacitySearch(capped).run(step -> new CapacitySearch.Outcome(true, "ran"),
            run -> heard.add(run.step().phase().label() + " " + run.step().users()));
        assertThat(heard).containsExactly("doubling 2500", "doubling 5000", "doubling 8000", "hold 8000");
        assertThat(result.users()).isEqualTo(8000);
        assertThat(result.capped()).isTrue();
    }

    @Test
    void levelsOffTheResolutionsGridAreRefused() {
        // Off the grid, a gap between resolution and twice it has no middle level: bisection would stall.
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> new CapacitySearch.Plan(0, Duration.ZERO, 2500, 1000, STEP, HOLD, 10_000_000))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("multiples of the resolution");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> new CapacitySearch.Plan(0, Duration.ZERO, 2500, 250, STEP, HOLD, 8100))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theWarmUpDoesNotCount() throws IOException {
        int[] score = new int[1];
        List<String> runs = search(PLAN, step -> step.phase() != Phase.WARM_UP && step.users() <= 2600, score);
        assertThat(runs.getFirst()).isEqualTo("warm-up 1000 fail");
        assertThat(score[0]).isEqualTo(2500);
    }
}
