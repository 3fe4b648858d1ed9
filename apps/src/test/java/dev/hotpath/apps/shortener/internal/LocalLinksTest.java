package dev.hotpath.apps.shortener.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LocalLinksTest {
    private static final Duration TTL = Duration.ofSeconds(60);
    private static final Duration NEGATIVE_TTL = Duration.ofSeconds(2);

    private long now = 1_000;
    private final List<CachedLink> departed = new ArrayList<>();

    private LocalLinks links(int maximumSize) {
        return new LocalLinks(maximumSize, TTL, NEGATIVE_TTL, () -> now, departed::add);
    }

    private static CachedLink link(long id) {
        return CachedLink.of(id, null, "https://a.example/" + id, -1, false, 302);
    }

    private static CachedLink named(long id, String name) {
        return CachedLink.of(id, name, "https://a.example/" + id, -1, false, 302);
    }

    @Test
    void aFilledLinkIsFoundByItsIdAndANamedOneByItsNameOnly() {
        LocalLinks local = links(100);
        CachedLink seven = link(7);
        CachedLink named = named(8, "my-alias");
        local.fill(seven, local.epoch());
        local.fill(named, local.epoch());
        assertThat(local.get(7)).isSameAs(seven);
        assertThat(local.get("my-alias")).isSameAs(named);
        assertThat(local.get(8)).isNull(); // a named link's id is not its code
        assertThat(local.get("other")).isNull();
        assertThat(local.size()).isEqualTo(2);
        assertThat(seven.resident).isTrue();
    }

    /** 100 entries make 12 buckets of 8, so 64 direct slots: ids 5 and 69 share one. */
    @Test
    void idsThatShareADirectSlotAreBothFoundAndEachForgottenAlone() {
        LocalLinks local = links(100);
        CachedLink five = link(5);
        CachedLink sixtyNine = link(69);
        local.fill(five, local.epoch());
        local.fill(sixtyNine, local.epoch());
        assertThat(local.get(5)).isSameAs(five);
        assertThat(local.get(69)).isSameAs(sixtyNine);
        local.invalidate(69L);
        assertThat(local.get(69)).isNull();
        assertThat(local.get(5)).as("still in its bucket").isSameAs(five);
        local.invalidate(5L);
        assertThat(local.get(5)).isNull();
    }

    @Test
    void aLinkThatLeavesIsNotFoundThroughItsDirectSlot() {
        LocalLinks local = links(100);
        CachedLink seven = link(7);
        local.fill(seven, local.epoch());
        local.deleted(seven.asDeleted());
        assertThat(local.get(7).deleted).as("the tombstone, not the live link").isTrue();
        local.invalidate(7L);
        assertThat(local.get(7)).isNull();
        local.fill(link(8), local.epoch());
        local.invalidateAll();
        assertThat(local.get(8)).isNull();
    }

    @Test
    void aHitIsAnsweredFromTheDirectSlotAndItsVisitCountedThere() {
        LocalLinks local = links(100);
        CachedLink seven = link(7);
        local.fill(seven, local.epoch());
        assertThat(local.hit(7, true)).isSameAs(seven.redirect);
        assertThat(local.hit(7, false)).as("a HEAD counts no visit").isSameAs(seven.redirect);
        assertThat(local.hit(71, true)).as("another id of the same slot").isNull();
        assertThat(seven.unflushedVisits()).as("counted in the slot, not on the link").isZero();
        assertThat(taken(local)).containsExactly(entry(7L, 1L));
        assertThat(taken(local)).isEmpty();
        now += TTL.toNanos();
        assertThat(local.hit(7, true)).as("past its time here").isNull();
        assertThat(taken(local)).isEmpty();
    }

    @Test
    void aLinkThatExpiresOrIsDeletedIsAnsweredOnlyThroughTheLink() {
        LocalLinks local = links(100);
        CachedLink expiring = CachedLink.of(3, null, "https://a.example/3", 4_102_444_800_000L, false, 302);
        CachedLink seven = link(7);
        local.fill(expiring, local.epoch());
        local.fill(seven, local.epoch());
        local.deleted(seven.asDeleted());
        assertThat(local.hit(3, true)).isNull();
        assertThat(local.get(3)).isSameAs(expiring);
        assertThat(local.hit(7, true)).isNull();
        assertThat(local.get(7).deleted).isTrue();
        assertThat(taken(local)).isEmpty();
    }

    @Test
    void theVisitsAndHitsOfADirectSlotGoWithTheLinkThatLeavesIt() {
        LocalLinks local = links(100);
        CachedLink five = link(5);
        local.fill(five, local.epoch());
        local.hit(5, true);
        local.hit(5, true);
        local.fill(link(69), local.epoch()); // 69 takes the direct slot 5 held
        assertThat(local.hit(5, true)).isNull();
        assertThat(five.unflushedVisits()).isEqualTo(2);
        assertThat(five.hits).isEqualTo(2);
        assertThat(departed).as("handed over with the visits it took along").containsExactly(five);
        local.invalidate(5L);
        assertThat(departed).containsExactly(five, five);
        assertThat(five.unflushedVisits()).as("left with its visits, for the queue").isEqualTo(2);
    }

    @Test
    void aTableThatGrowsOrIsDroppedHandsOnWhatItsSlotsCounted() {
        LocalLinks local = links(100_000);
        CachedLink first = link(0);
        local.fill(first, local.epoch());
        local.hit(0, true);
        for (long id = 1; id < 10_000; id++) { // the table grows under it, more than once
            local.fill(link(id), local.epoch());
        }
        assertThat(local.hit(0, true)).isSameAs(first.redirect);
        local.hit(1, true);
        assertThat(taken(local)).containsOnly(entry(0L, 2L), entry(1L, 1L));
        local.hit(1, true);
        local.invalidateAll();
        assertThat(local.hit(1, true)).isNull();
        assertThat(departed).filteredOn(link -> link.unflushedVisits() > 0).extracting(link -> link.id)
            .containsOnly(1L);
    }

    @Test
    void hitsInTheDirectSlotsCountForAdmission() {
        LocalLinks local = links(8);
        for (long resident = 0; resident < 8; resident++) {
            local.fill(link(resident), local.epoch());
            local.hit(resident, false);
            local.hit(resident, false);
        }
        CachedLink newcomer = link(99);
        local.fill(newcomer, local.epoch());
        assertThat(local.get(99)).isNull(); // asked for once, where each resident was hit twice
        local.fill(newcomer, local.epoch());
        assertThat(local.hit(99, false)).isSameAs(newcomer.redirect);
    }

    /** What {@link LocalLinks#takeVisits} hands over, summed per id. */
    private static Map<Long, Long> taken(LocalLinks local) {
        Map<Long, Long> taken = new HashMap<>();
        local.takeVisits((link, visits) -> taken.merge(link.id, visits, Long::sum));
        return taken;
    }

    @Test
    void entriesExpireByTheInjectedClockNegativeOnesSooner() {
        LocalLinks local = links(100);
        local.fill(link(1), local.epoch());
        local.fill(CachedLink.absent(2L), local.epoch());
        now += NEGATIVE_TTL.toNanos() - 1;
        assertThat(local.get(2).absent()).isTrue();
        now += 1;
        assertThat(local.get(2)).isNull();
        assertThat(local.get(1)).isNotNull();
        now += TTL.toNanos();
        assertThat(local.get(1)).isNull();
    }

    @Test
    void aNegativeEntryNeverReplacesALiveLinkButAnExpiredOne() {
        LocalLinks local = links(100);
        CachedLink created = link(3);
        local.created(created);
        local.fill(CachedLink.absent(3L), local.epoch());
        assertThat(local.get(3)).isSameAs(created);
        now += TTL.toNanos();
        local.fill(CachedLink.absent(3L), local.epoch());
        assertThat(local.get(3).absent()).isTrue();
        assertThat(departed).containsExactly(created);
        assertThat(created.resident).isFalse();
    }

    @Test
    void aLookUpThatOverlapsAnInvalidationStoresNothing() {
        LocalLinks local = links(100);
        long epoch = local.epoch();
        local.invalidate(5L);
        local.fill(link(5), epoch);
        assertThat(local.get(5)).isNull();
        long before = local.epoch();
        local.deleted(link(6).asDeleted());
        local.fill(link(6), before);
        assertThat(local.get(6).deleted).isTrue();
    }

    @Test
    void invalidatingHandsTheLinksThatLeaveToTheirVisitCounts() {
        LocalLinks local = links(100);
        CachedLink one = link(1);
        CachedLink two = named(2, "two");
        local.fill(one, local.epoch());
        local.fill(two, local.epoch());
        local.fill(CachedLink.absent(3L), local.epoch());
        local.invalidate("two");
        assertThat(departed).containsExactly(two);
        assertThat(local.get("two")).isNull();
        local.invalidateAll();
        assertThat(departed).containsExactly(two, one);
        assertThat(local.size()).isZero();
        assertThat(local.get(1)).isNull();
    }

    @Test
    void theTableGrowsToItsMaximumKeepingWhatItHolds() {
        LocalLinks local = links(100_000);
        for (long id = 0; id < 50_000; id++) {
            local.fill(link(id), local.epoch());
        }
        int found = 0;
        for (long id = 0; id < 50_000; id++) {
            found += local.get(id) != null ? 1 : 0;
        }
        // A link can only live in its own bucket of 8: at half full about 1% of buckets are full already.
        assertThat(found).isEqualTo(local.size()).isGreaterThan(49_000);
        List<CachedLink> walked = new ArrayList<>();
        local.forEachLink(walked::add);
        assertThat(walked).hasSize(found);
        assertThat(departed).hasSize(50_000 - found);
    }

    @Test
    void aScanOfOneOffCodesDoesNotPushOutTheHotLinks() {
        LocalLinks local = links(64);
        for (long hot = 0; hot < 64; hot++) {
            local.fill(link(hot), local.epoch());
        }
        List<Long> held = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            for (long hot = 0; hot < 64; hot++) {
                if (local.get(hot) != null && round == 0) {
                    held.add(hot);
                }
            }
        }
        assertThat(held).hasSizeGreaterThan(40);
        for (long oneOff = 1_000; oneOff < 11_000; oneOff++) { // one-offs, while the hot links stay asked for
            local.fill(link(oneOff), local.epoch());
            if (oneOff % 64 == 0) {
                held.forEach(local::get);
            }
        }
        for (long hot : held) {
            assertThat(local.get(hot)).as("hot link %d", hot).isNotNull();
        }
    }

    @Test
    void aLinkAskedForAgainAndAgainGetsIn() {
        LocalLinks local = links(8);
        for (long resident = 0; resident < 8; resident++) {
            local.fill(link(resident), local.epoch());
            local.get(resident);
            local.get(resident);
        }
        CachedLink newcomer = link(99);
        local.fill(newcomer, local.epoch());
        assertThat(local.get(99)).isNull(); // asked for once, where each resident was hit twice
        local.fill(newcomer, local.epoch());
        assertThat(local.get(99)).isSameAs(newcomer);
        assertThat(local.size()).isEqualTo(8);
        assertThat(departed).hasSize(1);
    }

    @Test
    void aNegativeEntryIsKeptUnderItsOwnKeyOnly() {
        LocalLinks local = links(100);
        local.fill(CachedLink.absent("no-such-alias"), local.epoch());
        local.fill(CachedLink.absent(4L), local.epoch());
        assertThat(local.get("no-such-alias").absent()).isTrue();
        assertThat(local.get("other-alias")).isNull();
        assertThat(local.get(4).absent()).isTrue();
        assertThat(local.get(5)).isNull();
        local.invalidate("no-such-alias");
        assertThat(local.get("no-such-alias")).isNull();
        assertThat(departed).isEmpty(); // a negative entry has no visits to hand over
    }

    @Test
    void aLinkPutAgainStaysInItsSlotWithItsTimeRenewed() {
        LocalLinks local = links(100);
        CachedLink link = link(9);
        local.created(link);
        now += TTL.toNanos() - 1;
        local.created(link);
        now += 1;
        assertThat(local.get(9)).isSameAs(link);
        assertThat(link.resident).isTrue();
        assertThat(local.size()).isEqualTo(1);
        assertThat(departed).isEmpty();
    }

    @Test
    void noCacheHoldsNothing() {
        LocalLinks local = links(0);
        local.fill(link(1), local.epoch());
        local.created(link(2));
        assertThat(local.get(1)).isNull();
        assertThat(local.get(2)).isNull();
        assertThat(local.size()).isZero();
    }
}
