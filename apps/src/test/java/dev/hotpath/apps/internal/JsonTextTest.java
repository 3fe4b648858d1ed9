package dev.hotpath.apps.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTextTest {
    /** Every byte value at every offset of a word and its tail, among fillers of both halves of the byte range. */
    @Test
    void findsEveryByteToEscapeOrAboveAsciiAmongAnyOthersWhateverItsOffset() {
        byte[] fillers = {'a', ' ', 0x7f, (byte) 0x80, (byte) 0xa2, (byte) 0xdc, (byte) 0xff, '!', ']'};
        for (int length = 1; length <= 17; length++) {
            for (int at = 0; at < length; at++) {
                for (int value = 0; value < 256; value++) {
                    for (byte filler : fillers) {
                        byte[] bytes = new byte[length + 2];
                        Arrays.fill(bytes, filler);
                        bytes[0] = '"'; // outside the range checked
                        bytes[length + 1] = '"';
                        bytes[1 + at] = (byte) value;
                        boolean escaped = value == '"' || value == '\\' || value < 0x20;
                        String where = "byte 0x%02x at %d of %d among 0x%02x".formatted(value, at, length, filler & 0xff);
                        assertThat(JsonText.needsEscaping(bytes, 1, length)).as(where).isEqualTo(escaped);
                        assertThat(JsonText.isPlainAscii(bytes, 1, length)).as(where)
                            .isEqualTo(!escaped && value < 0x80 && (length == 1 || filler >= 0));
                    }
                }
            }
        }
    }

    /** RFC 8259 §7's two-character escapes; the other control characters take {@code \\u}. */
    @Test
    void givesTheTwoCharacterEscapesAndUForOtherControlCharacters() {
        Map<Integer, Character> twoCharacter = Map.of((int) '"', '"', (int) '\\', '\\', 0x0A, 'n', 0x0D, 'r', 0x09, 't', 0x08, 'b',
            0x0C, 'f');
        for (int b = -128; b < 128; b++) {
            int expected = twoCharacter.containsKey(b) ? twoCharacter.get(b) : b >= 0 && b < 0x20 ? 'u' : 0;
            assertThat(JsonText.shortEscape((byte) b)).as("byte %d", b).isEqualTo((byte) expected);
        }
    }

    @Test
    void writesDecimalDigitsInPlace() {
        JsonText json = new JsonText(1);
        for (long value : new long[] {0, 7, 10, 99, 100, 1_000_000_007, Long.MAX_VALUE, -1, Long.MIN_VALUE}) {
            json.truncate(0);
            json.appendByte('x');
            json.appendDecimal(value);
            json.appendByte('x');
            assertThat(text(json)).isEqualTo("x" + value + "x");
        }
    }

    /** A column is copied whole only when the test lets it; a refused one leaves nothing behind and its text pending. */
    @Test
    void appendsAColumnWholeOnlyWhenItNeedsNothingMore() throws SQLException {
        JsonText json = new JsonText(2);
        TextRow row = TextRow.of("user-7@example.com", "Zoë", "a\"b", "Zoë ✓", "tab\t", "", null);
        assertThat(json.appendStringIfPlainAscii(row, 1)).isTrue();
        assertThat(json.appendStringIfPlainAscii(row, 2)).isFalse();
        assertThat(new String(json.pending(), 0, json.pendingLength(), StandardCharsets.UTF_8)).isEqualTo("Zoë");
        assertThat(json.appendStringIfPlainAscii(row, 3)).isFalse();
        assertThat(json.appendStringIfUnescaped(row, 4)).isTrue();
        assertThat(json.appendStringIfUnescaped(row, 5)).isFalse();
        assertThat(new String(json.pending(), 0, json.pendingLength(), StandardCharsets.UTF_8)).isEqualTo("tab\t");
        assertThat(json.appendStringIfUnescaped(row, 6)).isTrue();
        assertThat(text(json)).isEqualTo("\"user-7@example.com\"\"Zoë ✓\"\"\"");
        assertThatThrownBy(() -> json.appendStringIfUnescaped(row, 7)).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("NULL");
        assertThatThrownBy(() -> json.truncate(json.size() + 1)).isInstanceOf(IllegalArgumentException.class);
        json.truncate(1);
        assertThat(text(json)).isEqualTo("\"");
    }

    @Test
    void escapesEachByteWithTheHexDigitsItIsGiven() {
        JsonText json = new JsonText(1);
        byte[] upper = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);
        for (byte b : new byte[] {'a', '"', '\\', '\n', '\r', '\t', '\b', '\f', 0x00, 0x1b, 0x1f, 0x7f, '/', (byte) 0xc3}) {
            json.appendEscaped(b, upper);
        }
        assertThat(json.size()).isEqualTo(36);
        assertThat(new String(json.bytes(), 0, json.size(), StandardCharsets.ISO_8859_1))
            .isEqualTo("a\\\"\\\\\\n\\r\\t\\b\\f\\u0000\\u001B\\u001F\u007f/\u00c3");
    }

    /** A buffer a large answer grew is let go at the next clear; an ordinary one is kept. */
    @Test
    void shrinksBackAfterARareLargeAnswerOnly() {
        JsonText json = new JsonText(64);
        json.append(new byte[1000]);
        byte[] ordinary = json.bytes();
        json.clear();
        assertThat(json.size()).isZero();
        assertThat(json.bytes()).isSameAs(ordinary);
        json.append(new byte[2 << 20]);
        json.clear();
        assertThat(json.bytes()).hasSize(64);
    }

    private static String text(JsonText json) {
        return new String(json.bytes(), 0, json.size(), StandardCharsets.UTF_8);
    }
}
