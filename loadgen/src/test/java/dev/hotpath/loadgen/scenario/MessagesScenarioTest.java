package dev.hotpath.loadgen.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The strict reading of a message answer's id and time, and the table of acknowledged ids. */
class MessagesScenarioTest {
    private static final String ID = "019ad7f0-3c00-7abc-8def-0123456789ab";

    @Test
    void readsAndWritesACanonicalUuidV7() {
        long[] halves = Uuid7.parse(ID);
        assertThat(halves).containsExactly(0x019ad7f03c007abcL, 0x8def0123456789abL);
        assertThat(Uuid7.text(halves[0], halves[1])).isEqualTo(ID);
    }

    @ParameterizedTest
    @ValueSource(strings = {"019AD7F0-3C00-7ABC-8DEF-0123456789AB", "019ad7f0-3c00-4abc-8def-0123456789ab",
        "019ad7f0-3c00-7abc-cdef-0123456789ab", "019ad7f03c00-7abc-8def-0123456789ab-", "019ad7f0-3c00-7abc-8def-0123456789a",
        "019ad7f0-3c00-7abc-8def-0123456789ag"})
    void refusesAnIdTheContractDoesNotAllow(String id) {
        assertThat(Uuid7.parse(id)).isNull();
    }

    @Test
    void readsCreatedAtInTheStoredShapeOnly() {
        assertThat(MessagesScenario.createdAtMillis("2026-11-30T04:00:00.123Z")).isEqualTo(1_796_011_200_123L);
        assertThat(MessagesScenario.createdAtMillis("2026-11-30T04:00:00Z")).isEqualTo(-1);
        assertThat(MessagesScenario.createdAtMillis("2026-11-30T04:00:00.123+00:00")).isEqualTo(-1);
        assertThat(MessagesScenario.createdAtMillis("2026-13-30T04:00:00.123Z")).isEqualTo(-1);
    }

    @Test
    void acknowledgedIdsAreRecordedOnceAndAllComeBackAfterGrowing() {
        AcknowledgedMessages table = new AcknowledgedMessages();
        Random random = new Random(20261201L);
        long[][] ids = new long[100_000][];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = new long[] {random.nextLong() | 1, random.nextLong()};
            assertThat(table.add(ids[i][0], ids[i][1], i, 1000L + i)).isTrue();
        }
        assertThat(table.add(ids[42][0], ids[42][1], 7, 7)).as("a repeated id").isFalse();
        assertThat(table.tagOf(ids[42][0], ids[42][1])).isEqualTo(42);
        assertThat(table.tagOf(2, 3)).isEqualTo(-1);
        AcknowledgedMessages.Snapshot snapshot = table.snapshot();
        assertThat(snapshot.tags()).hasSize(ids.length);
        long tagSum = 0;
        for (int i = 0; i < snapshot.tags().length; i++) {
            int tag = (int) snapshot.tags()[i];
            assertThat(snapshot.highs()[i]).isEqualTo(ids[tag][0]);
            assertThat(snapshot.lows()[i]).isEqualTo(ids[tag][1]);
            assertThat(snapshot.createdAts()[i]).isEqualTo(1000L + tag);
            tagSum += tag;
        }
        assertThat(tagSum).isEqualTo((long) ids.length * (ids.length - 1) / 2);
    }
}
