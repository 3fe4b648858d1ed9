package dev.hotpath.apps.shortener.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class VisitCountsTest {
    private LocalLinks local;
    private final VisitCounts visits = new VisitCounts(walk -> local.forEachLink(walk));

    VisitCountsTest() {
        local = new LocalLinks(8, Duration.ofSeconds(60), Duration.ofSeconds(2), () -> 0, visits::departed);
    }

    private static CachedLink link(long id) {
        return CachedLink.of(id, null, "https://a.example/" + id, -1, false, 302);
    }

    @Test
    void aDrainAddsUpEachLinksEntriesAndListsTheLinksInIdOrder() {
        CachedLink seven = link(7);
        CachedLink sevenAgain = link(7); // without a local cache each redirect has an entry of its own
        CachedLink two = link(2);
        visits.count(seven);
        visits.count(seven);
        visits.count(two);
        visits.count(sevenAgain);
        assertThat(visits.counted()).isTrue();
        VisitCounts.Drained drained = visits.drain();
        assertThat(drained.ids()).containsExactly(2, 7);
        assertThat(drained.counts()).containsExactly(1, 3);
        assertThat(visits.counted()).isFalse();
        assertThat(visits.drain().isEmpty()).isTrue();
    }

    @Test
    void theVisitsOfLinksInTheTableAreFoundThereAndOfThoseThatLeftInTheQueue() {
        CachedLink held = link(1);
        CachedLink leaving = link(2);
        CachedLink outside = link(3);
        local.fill(held, local.epoch());
        local.fill(leaving, local.epoch());
        visits.count(held);
        visits.count(leaving);
        visits.count(leaving);
        visits.count(outside);
        local.invalidate(2L);
        visits.count(leaving); // after it left: counted still
        VisitCounts.Drained drained = visits.drain();
        assertThat(drained.ids()).containsExactly(1, 2, 3);
        assertThat(drained.counts()).containsExactly(1, 3, 1);
        visits.count(held);
        assertThat(visits.drain().counts()).containsExactly(1);
    }
}
