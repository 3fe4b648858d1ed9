package dev.hotpath.apps.users.internal;

import dev.hotpath.apps.internal.JsonText;
import dev.hotpath.store.RowQuery;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * Users' JSON written from rows' UTF-8 text where SQLite holds it ({@link RowQuery.Rows#getText}),
 * byte for byte what {@link UserJson#user} writes for the same text, so that the SQLite store answers
 * exactly as the in-memory one. Read through JDBC, a page cost about 4 KB of garbage (each text
 * column a buffer view, an array and a string, then jackson's output and its copies); written here, a
 * row costs nothing but the views of its three columns.
 *
 * <p>The escaping is jackson-core's UTF-8 generator's, as {@link UserJson} uses it: JSON's
 * two-character escapes, {@code \\u00XX} with uppercase hex for the other control characters, a
 * character past the Basic Multilingual Plane as its two surrogates escaped ({@code \\uD83D\\uDE00}),
 * and every other character's UTF-8 bytes as they are. Text that is ASCII with nothing to escape (the
 * common case: {@code user-7@example.com}) is checked a word at a time and copied whole. Text that is
 * not valid UTF-8 (no row this app writes has any, but another tool may write into the file) is read
 * as JDBC reads it, each bad sequence a U+FFFD, and that row is written by the generator.
 *
 * <p>One per reading thread: it keeps the buffer rows are written into ({@link JsonText}), which
 * grows to the largest page and stays, and an array for text that needs escaping.
 */
final class UserRowJson {
    private static final byte[] ID = ascii("{\"id\":");
    private static final byte[] NAME = ascii(",\"name\":");
    private static final byte[] EMAIL = ascii(",\"email\":");
    private static final byte[] CREATED_AT = ascii(",\"created_at\":");
    private static final byte[] HEX = ascii("0123456789ABCDEF");

    /** Writes the rare row whose text is not valid UTF-8. */
    private final UserJson.AnswerWriter generator = new UserJson.AnswerWriter();
    private final JsonText json = new JsonText(4096);
    /** Text that needs escaping, copied out of SQLite's memory to be checked as UTF-8 and escaped. */
    private byte[] text = new byte[256];

    /** Starts over: what was written is dropped. */
    void clear() {
        json.truncate(0);
    }

    /** The bytes written since {@link #clear}: {@code bytes()[0, size())}. */
    byte[] bytes() {
        return json.bytes();
    }

    int size() {
        return json.size();
    }

    /** Writes the comma between two users of a page. */
    void comma() {
        json.appendByte(',');
    }

    /**
     * Writes {@code {"id":..,"name":..,"email":..,"created_at":..}} from the text of one row, read
     * before the rows move on; each column is {@code NOT NULL} in the schema.
     */
    void user(long id, MemorySegment name, MemorySegment email, MemorySegment createdAt) {
        if (name == null || email == null || createdAt == null) {
            throw new IllegalStateException("a NOT NULL column of user " + id + " read as NULL");
        }
        int start = json.size();
        if (!fields(id, name, email, createdAt)) {
            json.truncate(start);
            json.append(generator.json(id, decoded(name), decoded(email), decoded(createdAt)));
        }
    }

    /** Writes the user; false, part way, when a column is not valid UTF-8. */
    private boolean fields(long id, MemorySegment name, MemorySegment email, MemorySegment createdAt) {
        json.append(ID);
        json.appendDecimal(id);
        json.append(NAME);
        if (!string(name)) {
            return false;
        }
        json.append(EMAIL);
        if (!string(email)) {
            return false;
        }
        json.append(CREATED_AT);
        if (!string(createdAt)) {
            return false;
        }
        json.appendByte('}');
        return true;
    }

    /** A JSON string of the text; false when it is not valid UTF-8. */
    private boolean string(MemorySegment utf8) {
        if (json.appendStringIfPlainAscii(utf8)) {
            return true;
        }
        int length = Math.toIntExact(utf8.byteSize());
        if (text.length < length) {
            text = new byte[Math.max(length, 2 * text.length)];
        }
        MemorySegment.copy(utf8, ValueLayout.JAVA_BYTE, 0, text, 0, length);
        return escaped(length);
    }

    /** Writes {@code text[0, length)} as a JSON string, escaped as jackson does; false when it is not valid UTF-8. */
    private boolean escaped(int length) {
        json.ensure(6L * length + 2); // the most: six bytes for each control character
        json.appendByte('"');
        for (int i = 0; i < length; ) {
            byte b = text[i];
            if (b >= 0) {
                byte letter = JsonText.shortEscape(b);
                if (letter == 0) {
                    json.appendByte(b);
                } else if (letter == 'u') {
                    unicodeEscape(b);
                } else {
                    json.appendByte('\\');
                    json.appendByte(letter);
                }
                i++;
                continue;
            }
            int sequence = Utf8.sequenceLength(text, i, length);
            if (sequence < 0) {
                return false;
            }
            if (sequence == 4) {
                int codePoint = (b & 0x07) << 18 | (text[i + 1] & 0x3F) << 12 | (text[i + 2] & 0x3F) << 6 | text[i + 3] & 0x3F;
                unicodeEscape(Character.highSurrogate(codePoint));
                unicodeEscape(Character.lowSurrogate(codePoint));
            } else {
                json.append(text, i, sequence);
            }
            i += sequence;
        }
        json.appendByte('"');
        return true;
    }

    /** {@code \\uXXXX}, uppercase. */
    private void unicodeEscape(int unit) {
        json.appendByte('\\');
        json.appendByte('u');
        json.appendByte(HEX[unit >> 12 & 0xF]);
        json.appendByte(HEX[unit >> 8 & 0xF]);
        json.appendByte(HEX[unit >> 4 & 0xF]);
        json.appendByte(HEX[unit & 0xF]);
    }

    /** The text as sqlite-jdbc's {@code getString} gives it: UTF-8 decoded, each bad sequence a U+FFFD. */
    private static String decoded(MemorySegment utf8) {
        return new String(utf8.toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
