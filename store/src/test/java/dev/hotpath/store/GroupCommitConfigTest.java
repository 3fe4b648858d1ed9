package dev.hotpath.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class GroupCommitConfigTest {
    @Test
    void startsFromDefaultsAndChangesOneSettingAtATime() {
        GroupCommitConfig defaults = GroupCommitConfig.named("w");
        GroupCommitConfig paced = defaults.withCommitInterval(Duration.ofMillis(4)).withMaxBatch(8);

        assertThat(defaults.queueCapacity()).isEqualTo(GroupCommitConfig.DEFAULT_QUEUE_CAPACITY);
        assertThat(defaults.maxBatch()).isEqualTo(GroupCommitConfig.DEFAULT_MAX_BATCH);
        assertThat(defaults.commitInterval()).isEqualTo(Duration.ZERO);
        assertThat(defaults.listener()).isSameAs(TransactionListener.NONE);
        assertThat(paced.commitInterval()).isEqualTo(Duration.ofMillis(4));
        assertThat(paced.maxBatch()).isEqualTo(8);
        assertThat(paced.queueCapacity()).isEqualTo(defaults.queueCapacity());
        assertThat(paced.name()).isEqualTo("w");
        Runnable afterCommit = () -> { };
        GroupCommitConfig after = paced.withAfterCommit(afterCommit);
        assertThat(after.afterCommit()).isSameAs(afterCommit);
        assertThat(after.maxBatch()).isEqualTo(8);
        assertThat(after.commitInterval()).isEqualTo(Duration.ofMillis(4));
    }

    @Test
    void refusesAnEmptyQueueAnEmptyBatchAndANegativeInterval() {
        GroupCommitConfig config = GroupCommitConfig.named("w");
        assertThatThrownBy(() -> config.withQueueCapacity(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> config.withMaxBatch(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> config.withCommitInterval(Duration.ofMillis(-1)))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> config.withListener(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> config.withAfterCommit(null)).isInstanceOf(NullPointerException.class);
    }
}
