package dev.hotpath.apps.internal;

import dev.hotpath.http.BodySink;
import dev.hotpath.store.RowQuery;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * JSON being written as bytes, for the answers the apps write straight from SQLite's UTF-8 text
 * ({@link RowQuery.Rows#copyText}) instead of through strings and a generator: a buffer that grows to
 * the largest answer and stays (up to 1 MiB: a larger one is let go at {@link #clear}), and the fast
 * path every such writer shares, a column copied in whole when a word-at-a-time test finds nothing in
 * it to escape. What needs escaping is each app's own policy (the social API keeps characters past
 * the BMP as UTF-8, the users API escapes them as jackson does), written from {@link #pending}
 * through {@link #appendEscaped}, {@link #appendUnicodeEscape} and {@link #appendByte}.
 *
 * <p>One per writing thread. More than a Java array holds is refused, not wrapped around.
 */
public final class JsonText {
    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long QUOTES = ONES * '"';
    private static final long BACKSLASHES = ONES * '\\';
    private static final long SPACES = ONES * ' ';
    /** The most written: about as large as a Java array can be. */
    private static final int MAX_BYTES = Integer.MAX_VALUE - 16;

    /** What a buffer grown past by a rare large answer shrinks back from at {@link #clear}. */
    private static final int KEPT_BYTES = 1 << 20;
    private static final int PENDING_BYTES = 256;

    private final int capacity;
    private byte[] out;
    private int size;
    private byte[] pending = new byte[PENDING_BYTES];
    private int pendingLength;

    public JsonText(int capacity) {
        this.capacity = capacity;
        out = new byte[capacity];
    }

    /**
     * Drops what was written, for the next answer. A buffer a rare large answer grew past
     * {@link #KEPT_BYTES} (a row another tool wrote, say) goes back to its first size, so one such
     * answer does not stay resident for the thread's life.
     */
    public void clear() {
        size = 0;
        pendingLength = 0;
        if (out.length > KEPT_BYTES) {
            out = new byte[capacity];
        }
        if (pending.length > KEPT_BYTES) {
            pending = new byte[PENDING_BYTES];
        }
    }

    /** The bytes written: {@code bytes()[0, size())}. */
    public byte[] bytes() {
        return out;
    }

    public int size() {
        return size;
    }

    /** Drops what was written past {@code size}. */
    public void truncate(int size) {
        if (size < 0 || size > this.size) {
            throw new IllegalArgumentException("cannot truncate " + this.size + " bytes to " + size);
        }
        this.size = size;
    }

    public void append(byte[] bytes) {
        append(bytes, 0, bytes.length);
    }

    public void append(byte[] bytes, int from, int length) {
        ensure(length);
        System.arraycopy(bytes, from, out, size, length);
        size += length;
    }

    public void appendByte(int b) {
        ensure(1);
        out[size++] = (byte) b;
    }

    /** The decimal digits of {@code value}, written in place for one that is not negative. */
    public void appendDecimal(long value) {
        if (value < 0) {
            append(Long.toString(value).getBytes(StandardCharsets.US_ASCII));
            return;
        }
        int digits = BodySink.decimalLength(value);
        ensure(digits);
        for (int i = size + digits - 1; i >= size; i--) {
            out[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        size += digits;
    }

    /**
     * Appends column {@code column}'s text quoted, as a JSON string, when it holds nothing to escape
     * ({@link #needsEscaping}) and returns true; else appends nothing, leaves the text in
     * {@link #pending} for the caller to escape, and returns false. The text is copied from the row
     * into this buffer first ({@link RowQuery.Rows#copyText}) and checked there.
     *
     * @throws IllegalStateException for a NULL: every column written this way is {@code NOT NULL}
     */
    public boolean appendStringIfUnescaped(RowQuery.Rows row, int column) throws SQLException {
        return appendStringIf(row, column, 0);
    }

    /**
     * As {@link #appendStringIfUnescaped}, for text that is also ASCII ({@link #isPlainAscii}): for a
     * policy that escapes some characters past ASCII.
     */
    public boolean appendStringIfPlainAscii(RowQuery.Rows row, int column) throws SQLException {
        return appendStringIf(row, column, HIGHS);
    }

    private boolean appendStringIf(RowQuery.Rows row, int column, long alsoRefused) throws SQLException {
        int length = row.textLength(column);
        if (length < 0) {
            throw new IllegalStateException("column " + column + " read as NULL where the schema has NOT NULL text");
        }
        ensure(length + 2L);
        int start = size;
        row.copyText(column, out, start + 1);
        if (holdsAny(out, start + 1, length, alsoRefused)) {
            if (pending.length < length) {
                pending = new byte[Math.max(length, 2 * pending.length)];
            }
            System.arraycopy(out, start + 1, pending, 0, length);
            pendingLength = length;
            return false;
        }
        out[start] = '"';
        out[start + 1 + length] = '"';
        size = start + length + 2;
        return true;
    }

    /** The text the last refused {@code appendString...} left to escape: {@code pending()[0, pendingLength())}. */
    public byte[] pending() {
        return pending;
    }

    public int pendingLength() {
        return pendingLength;
    }

    /**
     * Appends a byte of text with the escape JSON needs for it ({@link #shortEscape}): a
     * two-character escape, {@code \\u00XX} in the digits of {@code hex} for another control
     * character, or the byte itself (every byte of 0x80 and above among them).
     */
    public void appendEscaped(byte b, byte[] hex) {
        byte letter = shortEscape(b);
        if (letter == 0) {
            appendByte(b);
        } else if (letter == 'u') {
            appendUnicodeEscape(b, hex);
        } else {
            appendByte('\\');
            appendByte(letter);
        }
    }

    /** Appends {@code \\uXXXX} for the UTF-16 code unit {@code unit}, in the digits of {@code hex}. */
    public void appendUnicodeEscape(int unit, byte[] hex) {
        ensure(6);
        out[size++] = '\\';
        out[size++] = 'u';
        out[size++] = hex[unit >> 12 & 0xF];
        out[size++] = hex[unit >> 8 & 0xF];
        out[size++] = hex[unit >> 4 & 0xF];
        out[size++] = hex[unit & 0xF];
    }

    /** Room for {@code more} bytes past what is written. */
    private void ensure(long more) {
        if (out.length - size < more) {
            if (size + more > MAX_BYTES) {
                throw new IllegalStateException("JSON of more than " + MAX_BYTES + " bytes");
            }
            out = Arrays.copyOf(out, (int) Math.max(Math.min(2L * out.length, MAX_BYTES), size + more));
        }
    }

    /**
     * Whether {@code bytes[from, from + length)} holds a quote, a backslash or a control character
     * (below 0x20), tested a word at a time: {@code (w - 0x01..) & ~w & 0x80..} is non-zero when a byte
     * of {@code w} is zero (and only then), so a byte equal to {@code c} is a zero byte of
     * {@code w ^ c..}, and a byte below 0x20 borrows into its high bit when 0x20 is taken from it,
     * which {@code ~w} keeps only for bytes below 0x80. The bytes of a multi-byte character (0x80 and
     * above) never match.
     */
    static boolean needsEscaping(byte[] bytes, int from, int length) {
        return holdsAny(bytes, from, length, 0);
    }

    /**
     * Whether {@code bytes[from, from + length)} is ASCII with nothing to escape: no quote, backslash,
     * control character, nor any byte of 0x80 and above. Such text is its own JSON string content under
     * every escaping policy; the test is {@link #needsEscaping}'s with each word's own high bits added.
     */
    static boolean isPlainAscii(byte[] bytes, int from, int length) {
        return !holdsAny(bytes, from, length, HIGHS);
    }

    /** Whether the bytes hold one to escape, or one with a bit of {@code alsoFound} (0 or the high bits) set. */
    private static boolean holdsAny(byte[] bytes, int from, int length, long alsoFound) {
        int i = from;
        int end = from + length;
        for (; i + Long.BYTES <= end; i += Long.BYTES) {
            long word = (long) WORDS.get(bytes, i);
            long quotes = word ^ QUOTES;
            long backslashes = word ^ BACKSLASHES;
            long found = ((quotes - ONES) & ~quotes) | ((backslashes - ONES) & ~backslashes) | ((word - SPACES) & ~word)
                | (word & alsoFound);
            if ((found & HIGHS) != 0) {
                return true;
            }
        }
        for (; i < end; i++) {
            if (shortEscape(bytes[i]) != 0 || (bytes[i] & alsoFound & 0x80) != 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The letter of a byte's two-character escape ({@code n} for a line feed, and so on), {@code 'u'}
     * for another control character, which is written {@code \\u00XX}, or 0 for a byte kept as it is.
     */
    static byte shortEscape(byte b) {
        return switch (b) {
            case '"' -> '"';
            case '\\' -> '\\';
            case '\n' -> 'n';
            case '\r' -> 'r';
            case '\t' -> 't';
            case '\b' -> 'b';
            case '\f' -> 'f';
            default -> b >= 0 && b < ' ' ? (byte) 'u' : 0;
        };
    }
}
