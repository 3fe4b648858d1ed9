package dev.hotpath.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ConnectionSeedTest {
    /** The first draws of connection {@code i}, as a scenario picking one of 10,000 links draws them. */
    private static List<Integer> draws(int i) {
        SplittableRandom random = new SplittableRandom(LoadRun.connectionSeed(i));
        List<Integer> draws = new ArrayList<>();
        for (int k = 0; k < 50; k++) {
            draws.add(random.nextInt(10_000));
        }
        return draws;
    }

    @Test
    void noConnectionReplaysAnotherOnesSequenceShifted() {
        List<Integer> first = draws(0);
        for (int i = 1; i < 64; i++) {
            List<Integer> other = draws(i);
            long shared = other.stream().filter(first::contains).count();
            // The old seeds gave connection i connection 0's draws shifted by i: 50 - i of them shared.
            assertThat(shared).as("draws of connection %d also drawn by connection 0", i).isLessThan(10);
        }
    }
}
