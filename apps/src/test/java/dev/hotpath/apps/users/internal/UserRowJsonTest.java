package dev.hotpath.apps.users.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hotpath.apps.internal.TextRow;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Users written from UTF-8 rows, held byte for byte to the generator the in-memory store writes them with. */
class UserRowJsonTest {
    /**
     * Characters of every kind the escaping tells apart: each control character, the two that are
     * always escaped, DEL and the solidus (kept), and characters of two, three and four UTF-8 bytes,
     * among them the line separators JavaScript once choked on, the byte order mark and the last code point.
     */
    private static final int[] CODE_POINTS = codePoints();

    private static int[] codePoints() {
        int[] chosen = {'"', '\\', 0x7F, '/', 'a', 'Z', '0', ' ', '@', 0xE9, 0x7FF, 0x800, 0x2028, 0x2029, 0x2713, 0xFEFF, 0xFFFD,
            0xFFFF, 0x10000, 0x1F680, 0x10FFFF};
        int[] all = Arrays.copyOf(chosen, chosen.length + 0x20);
        for (int c = 0; c < 0x20; c++) {
            all[chosen.length + c] = c;
        }
        return all;
    }

    static String randomText(SplittableRandom random) {
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(0, 24);
        boolean plain = random.nextInt(4) == 0; // ASCII with nothing to escape: the copy taken whole
        for (int i = 0; i < length; i++) {
            int c = plain ? random.nextInt(0x20, 0x7F) : CODE_POINTS[random.nextInt(CODE_POINTS.length)];
            text.appendCodePoint(plain && (c == '"' || c == '\\') ? 'q' : c);
        }
        return text.toString();
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String written(UserRowJson json) {
        return new String(json.bytes(), 0, json.size(), StandardCharsets.UTF_8);
    }

    @Test
    void writesEachUserAsTheGeneratorDoesWhateverItsTextHolds() throws SQLException {
        SplittableRandom random = new SplittableRandom(20261207);
        UserRowJson json = new UserRowJson();
        for (int i = 0; i < 20_000; i++) {
            long id = i % 7 == 0 ? Long.MAX_VALUE - i : i + 1;
            String name = randomText(random);
            String email = randomText(random);
            String createdAt = randomText(random);
            json.clear();
            json.user(id, TextRow.of(name, email, createdAt), 1);
            byte[] expected = GeneratedUser.json(id, name, email, createdAt);
            assertThat(Arrays.copyOf(json.bytes(), json.size()))
                .as("name %s, email %s, created_at %s", escapedJava(name), escapedJava(email), escapedJava(createdAt))
                .isEqualTo(expected);
        }
    }

    @Test
    void writesTheEscapesInTheGeneratorsForm() throws SQLException {
        UserRowJson json = new UserRowJson();
        json.user(1, TextRow.of("q\" b\\ n\n z\u0000 e\u001b del\u007f s/", "🚀é✓", ""), 1);
        assertThat(written(json)).isEqualTo(
            "{\"id\":1,\"name\":\"q\\\" b\\\\ n\\n z\\u0000 e\\u001B del\u007f s/\",\"email\":\"\\uD83D\\uDE80é✓\",\"created_at\":\"\"}");
    }

    /** Bytes no valid UTF-8 text has, among valid ones: each row with any is written from the text JDBC would decode. */
    @Test
    void writesARowThatIsNotUtf8AsItsDecodedTextAmongRowsThatAre() throws SQLException {
        byte[] pieces = HexFormat.of().parseHex("41225c0a017f80bfc0c1c2e0eda0f0f4908ff5ff");
        SplittableRandom random = new SplittableRandom(7);
        UserRowJson json = new UserRowJson();
        int invalid = 0;
        for (int i = 0; i < 20_000; i++) {
            byte[] name = new byte[random.nextInt(1, 9)];
            for (int b = 0; b < name.length; b++) {
                name[b] = pieces[random.nextInt(pieces.length)];
            }
            String decoded = new String(name, StandardCharsets.UTF_8);
            invalid += Arrays.equals(decoded.getBytes(StandardCharsets.UTF_8), name) ? 0 : 1;
            json.clear();
            json.user(3, TextRow.of("before", "x@y", "t"), 1);
            json.comma();
            json.user(4, new TextRow(new byte[0], name, utf8("é@x"), utf8("t")), 2);
            assertThat(written(json)).as("name %s", HexFormat.of().formatHex(name)).isEqualTo(
                new String(GeneratedUser.json(3, "before", "x@y", "t"), StandardCharsets.UTF_8) + ","
                    + new String(GeneratedUser.json(4, decoded, "é@x", "t"), StandardCharsets.UTF_8));
        }
        assertThat(invalid).as("rows that were not valid UTF-8").isGreaterThan(10_000);
    }

    @Test
    void growsPastItsFirstBufferAndKeepsWhatItWrote() throws SQLException {
        UserRowJson json = new UserRowJson();
        String longName = "\u0001".repeat(5_000); // six bytes each, escaped
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (int id = 1; id <= 3; id++) {
            if (id > 1) {
                json.comma();
                expected.write(',');
            }
            json.user(id, TextRow.of(longName, "a@b", "t"), 1);
            expected.writeBytes(GeneratedUser.json(id, longName, "a@b", "t"));
        }
        assertThat(Arrays.copyOf(json.bytes(), json.size())).isEqualTo(expected.toByteArray());
    }

    @Test
    void refusesANullWhereTheUserHasText() {
        assertThatThrownBy(() -> new UserRowJson().user(1, TextRow.of("a", null, "t"), 1))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("NULL");
    }

    private static String escapedJava(String text) {
        StringBuilder out = new StringBuilder();
        text.codePoints().forEach(c -> out.append(c >= 0x20 && c < 0x7F ? Character.toString(c) : "\\u{%X}".formatted(c)));
        return out.toString();
    }
}
