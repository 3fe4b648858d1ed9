package dev.hotpath.apps.messages.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** An entry's form: what the fast path appends is what the worker reads, and nothing else is a message. */
class StreamEntriesTest {
    private static final String ID = "0194f5c2-7a3b-7cde-8f01-23456789abcd";

    private static Map<String, String> entry(String id, String from, String to, String message) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("id", id);
        fields.put("from", from);
        fields.put("to", to);
        fields.put("message", message);
        return fields;
    }

    @Test
    void aMessageRoundTripsThroughItsEntry() throws Exception {
        Message message = Message.create(new MessageIds(Clock.systemUTC()).next(),
            new NewMessage("al ice", "bö", "line\nnext \u0000 😀"));
        assertThat(StreamEntries.fields(message)).containsOnlyKeys("id", "from", "to", "message");
        assertThat(StreamEntries.parse(StreamEntries.fields(message))).isEqualTo(message);
    }

    @Test
    void anEntryWithAnUnknownFieldIsRefused() {
        Map<String, String> fields = entry(ID, "a", "b", "c");
        fields.put("created_at", "2026-01-01T00:00:00.000Z");
        assertThatThrownBy(() -> StreamEntries.parse(fields)).hasMessage("unknown field created_at");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "nope                                 | a | b | c | id is not a UUIDv7: nope",
        "0194f5c2-7a3b-4cde-8f01-23456789abcd | a | b | c | id is not a UUIDv7",
        "0194f5c2-7a3b-7cde-cf01-23456789abcd | a | b | c | id is not a UUIDv7",
        ID + "                                |   | b | c | from must not be empty",
        ID + "                                | a | b |   | message must not be empty",
    })
    void anEntryThatIsNotAMessageIsRefusedWithItsReason(String id, String from, String to, String message, String reason) {
        Map<String, String> fields = entry(id.strip(), from == null ? "" : from, to == null ? "" : to,
            message == null ? "" : message);
        assertThatThrownBy(() -> StreamEntries.parse(fields)).hasMessageStartingWith(reason);
    }

    @Test
    void namesAreCheckedAsOnTheHttpSide() {
        assertThatThrownBy(() -> StreamEntries.parse(entry(ID, "a\u0007", "b", "c")))
            .hasMessage("from must not contain control characters");
        assertThatThrownBy(() -> StreamEntries.parse(entry(ID, "a", "x".repeat(65), "c")))
            .hasMessage("to must be at most 64 characters, was 65");
        assertThatThrownBy(() -> StreamEntries.parse(entry(ID, "a", "b", "\ud800")))
            .hasMessageContaining("lone surrogate");
        Map<String, String> missing = entry(ID, "a", "b", "c");
        missing.remove("to");
        assertThatThrownBy(() -> StreamEntries.parse(missing)).hasMessage("to is required");
        assertThatThrownBy(() -> StreamEntries.parse(Map.of())).hasMessage("the entry has no fields");
    }

    @Test
    void theIdAfterAStreamIdIsTheNextSequenceNumber() {
        assertThat(StreamWorker.next("1700000000000-0")).isEqualTo("1700000000000-1");
        assertThat(StreamWorker.next("1700000000000-41")).isEqualTo("1700000000000-42");
        assertThat(StreamWorker.next("1700000000000-18446744073709551615")).isEqualTo("1700000000001-0");
    }
}
