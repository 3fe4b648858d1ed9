package dev.hotpath.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TimeScaleTest {
    @Test
    void usersThatFitHoldAConnectionEachAndSaySo() {
        TimeScale scale = TimeScale.of(19_000, 19_000);
        assertThat(scale.scaled()).isFalse();
        assertThat(scale.thinkScale()).isEqualTo(1.0);
        assertThat(scale.describe()).isEqualTo("19,000 users");
    }

    @Test
    void moreUsersThanConnectionsDivideEveryThinkTimeAndSaySo() {
        TimeScale scale = TimeScale.of(200_000, 19_000);
        assertThat(scale.scaled()).isTrue();
        assertThat(scale.connections()).isEqualTo(19_000);
        assertThat(scale.factor()).isCloseTo(10.526, org.assertj.core.data.Offset.offset(0.001));
        assertThat(scale.thinkScale() * scale.factor()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(scale.describe()).isEqualTo("rate of 200,000 users over 19,000 connections, think times \u00f7 10.53");
    }

    @Test
    void refusesMoreConnectionsThanUsers() {
        assertThatThrownBy(() -> new TimeScale(10, 11)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TimeScale.of(0, 19_000)).isInstanceOf(IllegalArgumentException.class);
    }
}
