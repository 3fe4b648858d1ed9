package dev.hotpath.apps.shortener.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class VisitCountsTest {
    private LocalLinks local;
    private final VisitCounts visits = new VisitCounts(taken -> local.takeVisits(taken));

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

    @Test
    void visitsASlotHandsToItsLinkAreFlaggedForTheNextFlush() {
        CachedLink five = link(5);
        local.fill(five, local.epoch());
        local.hit(5, true); // as if counted while a drain had just cleared the flag
        assertThat(visits.counted()).isFalse();
        local.fill(link(13), local.epoch()); // 8 entries, 8 direct slots: 13 takes the slot of 5
        assertThat(visits.counted()).as("the next flush must walk for them").isTrue();
        VisitCounts.Drained drained = visits.drain();
        assertThat(drained.ids()).containsExactly(5);
        assertThat(drained.counts()).containsExactly(1);
    }

    /**
     * Two threads redirect three ids that share one direct slot, the fast way where the slot answers
     * and through the link where it does not, while a third makes the slot change hands (creates,
     * invalidations, the whole table dropped) and a fourth flushes: every visit counted comes out of
     * the flushes once, under its own id. A visit counted in a slot after it changed hands would show
     * up under another id, one moved twice or dropped in a total off by it.
     */
    @Test
    void visitsCountedWhileTheirSlotChangesHandsAreEachTakenOnceUnderTheirOwnId() throws Exception {
        LocalLinks[] table = new LocalLinks[1];
        VisitCounts counts = new VisitCounts(taken -> table[0].takeVisits(taken));
        table[0] = new LocalLinks(100, Duration.ofSeconds(60), Duration.ofSeconds(2), () -> 0, counts::departed);
        LocalLinks shared = table[0];
        long[] ids = {5, 69, 133}; // 100 entries: 64 direct slots, so all three have slot 5
        for (long id : ids) {
            shared.created(link(id));
        }
        AtomicBoolean changing = new AtomicBoolean(true);
        long[][] counted = new long[2][ids.length];
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            long[] mine = counted[r];
            readers.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; changing.get(); i++) {
                    int which = i % ids.length;
                    if (shared.hit(ids[which], true) != null) {
                        counts.markCounted();
                        mine[which]++;
                    } else {
                        CachedLink link = shared.get(ids[which]);
                        if (link != null) {
                            counts.count(link);
                            mine[which]++;
                        }
                    }
                }
            }));
        }
        Map<Long, Long> flushed = new HashMap<>();
        Thread flusher = Thread.ofPlatform().start(() -> {
            while (changing.get()) {
                flush(counts, flushed);
            }
        });
        for (int change = 0; change < 50_000; change++) {
            long id = ids[change % ids.length];
            switch (change % 6) {
                case 0 -> shared.invalidate(id);
                case 1 -> shared.invalidateAll();
                default -> shared.created(link(id));
            }
        }
        changing.set(false);
        for (Thread reader : readers) {
            reader.join();
        }
        flusher.join();
        flush(counts, flushed);
        for (int which = 0; which < ids.length; which++) {
            assertThat(flushed.getOrDefault(ids[which], 0L)).as("visits of %d", ids[which])
                .isEqualTo(counted[0][which] + counted[1][which]);
        }
    }

    private static void flush(VisitCounts counts, Map<Long, Long> flushed) {
        VisitCounts.Drained drained = counts.drain();
        for (int i = 0; i < drained.ids().length; i++) {
            flushed.merge(drained.ids()[i], drained.counts()[i], Long::sum);
        }
    }
}
