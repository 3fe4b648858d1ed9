package dev.hotpath.apps.shortener.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FrequencySketchTest {
    private static final long HASH = 0x1234_5678_9ABC_DEF1L;

    @Test
    void estimatesCountUpToTheirMaximum() {
        FrequencySketch sketch = new FrequencySketch(1024);
        assertThat(sketch.estimate(HASH)).isZero();
        for (int i = 1; i <= 20; i++) {
            sketch.add(HASH);
            assertThat(sketch.estimate(HASH)).isEqualTo(Math.min(i, FrequencySketch.MAX));
        }
        assertThat(sketch.estimate(~HASH)).isZero();
    }

    @Test
    void everyCountIsHalvedAfterTenTimesTheCapacity() {
        FrequencySketch sketch = new FrequencySketch(64);
        for (int i = 0; i < 12; i++) {
            assertThat(sketch.add(HASH)).isFalse();
        }
        long other = 0x0FED_CBA9_8765_4321L;
        int additions = 12;
        while (!sketch.add(other)) {
            additions++;
        }
        assertThat(additions + 1).isEqualTo(640);
        assertThat(sketch.estimate(other)).isEqualTo(FrequencySketch.MAX / 2);
        assertThat(sketch.estimate(HASH)).isEqualTo(6);
    }
}
