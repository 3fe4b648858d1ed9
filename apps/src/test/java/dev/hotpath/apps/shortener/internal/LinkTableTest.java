package dev.hotpath.apps.shortener.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LinkTableTest {
    private final LinkTable table = new LinkTable(200_000);

    private List<String> drain() {
        List<String> changed = new ArrayList<>();
        table.drainChangedVisits((id, visits) -> changed.add(id + "=" + visits));
        return changed;
    }

    @Test
    void keepsEveryUrlAcrossArenaChunksAndReadsItBack() {
        for (int id = 0; id < 100_000; id++) {
            table.publish(id, "https://example.com/" + id + "/" + "x".repeat(id % 50), id, null, false, -1, 0, false);
        }
        assertThat(table.longUrl(0)).isEqualTo("https://example.com/0/");
        assertThat(table.longUrl(99_999)).isEqualTo("https://example.com/99999/" + "x".repeat(49));
        assertThat(table.urls().reservedBytes()).isGreaterThan(1 << 20);
    }

    @Test
    void reportsChangedVisitCountsOnceAndAgainAfterAFailedFlush() {
        for (int id = 0; id < 3; id++) {
            table.publish(id, "https://example.com/" + id, 0, null, false, -1, 0, false);
        }
        table.countVisit(1);
        table.countVisit(1);
        table.countVisit(2);
        assertThat(drain()).containsExactly("1=2", "2=1");
        assertThat(drain()).isEmpty();

        table.unpersist(1);
        assertThat(drain()).containsExactly("1=2");
        assertThat(drain()).isEmpty();
    }
}
