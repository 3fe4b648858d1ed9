package dev.hotpath.apps.social;

import dev.hotpath.http.Response;
import dev.hotpath.store.RowQuery;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * The social API's post answers, written as bytes: {@code {"posts":[...]}}, {@code {"post":...}},
 * each post with the contract's keys in its order,
 * {@code {"id":..,"body":..,"created_at":..,"author":..,"like_count":..}}.
 *
 * <p>Why not the JSON generator every other answer uses ({@code JsonBytes}): a post's text is UTF-8
 * already, where SQLite holds it ({@link RowQuery.Rows#getText}), and nearly every post has nothing to
 * escape, so it can be checked eight bytes at a time and copied into the answer whole. A feed so
 * written took 0.90× the time of SQLite writing each post object itself ({@code json_object}), where
 * jackson-core's generator, reused, writing the same rows took about 0.96×, and the server's CPU per
 * request in the social mix fell to about 0.95× with it (docs/BENCHMARKS.md). The keys are
 * constants; the numbers are the only values formatted. Text that needs escaping takes JSON's
 * two-character escapes, or {@code \\u00xx} for other control characters.
 *
 * <p>One instance per reading thread: it keeps the buffer answers are written into, which grows to
 * the largest answer and stays.
 */
final class PostJson {
    /** The columns of a post row, in the order {@link #feed} and {@link #post} read them, from posts {@code p} joined to their users {@code u}. */
    static final String COLUMNS = "p.id, p.body, p.created_at, u.username, (SELECT count(*) FROM likes l WHERE l.post_id = p.id)";
    private static final byte[] FEED_START = ascii("{\"posts\":[");
    private static final byte[] FEED_END = ascii("]}");
    private static final byte[] POST_START = ascii("{\"post\":");
    private static final byte[] POST_END = ascii("}");
    private static final byte[] ID = ascii("{\"id\":");
    private static final byte[] BODY = ascii(",\"body\":");
    private static final byte[] CREATED_AT = ascii(",\"created_at\":");
    private static final byte[] AUTHOR = ascii(",\"author\":");
    private static final byte[] LIKE_COUNT = ascii(",\"like_count\":");
    private static final byte[] HEX = ascii("0123456789abcdef");
    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long QUOTES = ONES * '"';
    private static final long BACKSLASHES = ONES * '\\';
    private static final long SPACES = ONES * ' ';

    /** The largest answer: about as large as a Java array can be. */
    private static final int MAX_ANSWER = Integer.MAX_VALUE - 16;

    private byte[] out;
    private int size;

    PostJson(int capacity) {
        out = new byte[capacity];
    }

    /** The {@code 200} answer {@code {"posts":[...]}} with every row of {@code rows}. */
    Response feed(RowQuery.Rows rows) throws SQLException {
        size = 0;
        append(FEED_START);
        for (boolean first = true; rows.next(); first = false) {
            if (!first) {
                ensure(1);
                out[size++] = ',';
            }
            postOnRow(rows);
        }
        append(FEED_END);
        return answer(200);
    }

    /** The {@code 200} answer {@code {"post":{...}}} of the current row of {@code row}. */
    Response post(RowQuery.Rows row) throws SQLException {
        size = 0;
        append(POST_START);
        postOnRow(row);
        append(POST_END);
        return answer(200);
    }

    /** The post on the current row of {@code row}, read in the order of {@link #COLUMNS}. */
    private void postOnRow(RowQuery.Rows row) throws SQLException {
        post(row.getLong(1), row.getText(2), row.getText(3), row.getText(4), row.getLong(5));
    }

    /** The {@code 201} answer {@code {"post":{...}}} of a post just written: it has no likes yet. */
    static Response created(long id, String body, String createdAt, String author) {
        PostJson json = new PostJson(128 + 3 * body.length());
        json.append(POST_START);
        json.post(id, utf8(body), utf8(createdAt), utf8(author), 0);
        json.append(POST_END);
        return json.answer(201);
    }

    /** The answer with what was written: its bytes copied once, from this buffer into the answer's. */
    private Response answer(int status) {
        return Response.of(status, "application/json", out, size);
    }

    private void post(long id, MemorySegment body, MemorySegment createdAt, MemorySegment author, long likeCount) {
        append(ID);
        number(id);
        append(BODY);
        string(body);
        append(CREATED_AT);
        string(createdAt);
        append(AUTHOR);
        string(author);
        append(LIKE_COUNT);
        number(likeCount);
        ensure(1);
        out[size++] = '}';
    }

    /**
     * A JSON string of UTF-8 text; every column written here is {@code NOT NULL} in the schema. The
     * text is copied into the answer first and checked there, where a word is read with fewer checks
     * than from the segment; text that needs escaping is written again over it, escaped.
     */
    private void string(MemorySegment utf8) {
        if (utf8 == null) {
            throw new IllegalStateException("a NOT NULL column of a post read as NULL");
        }
        int length = Math.toIntExact(utf8.byteSize());
        ensure(length + 2L);
        int start = size;
        out[size++] = '"';
        MemorySegment.copy(utf8, ValueLayout.JAVA_BYTE, 0, out, size, length);
        if (needsEscaping(out, size, length)) {
            size = start;
            escaped(utf8, length);
            return;
        }
        size += length;
        out[size++] = '"';
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
        int i = from;
        int end = from + length;
        for (; i + Long.BYTES <= end; i += Long.BYTES) {
            long word = (long) WORDS.get(bytes, i);
            long quotes = word ^ QUOTES;
            long backslashes = word ^ BACKSLASHES;
            long found = ((quotes - ONES) & ~quotes) | ((backslashes - ONES) & ~backslashes) | ((word - SPACES) & ~word);
            if ((found & HIGHS) != 0) {
                return true;
            }
        }
        for (; i < end; i++) {
            if (escape(bytes[i]) != 0) {
                return true;
            }
        }
        return false;
    }

    /** The letter of a byte's two-character escape, {@code 'u'} for one written {@code \\u00xx}, or 0 for a byte kept as it is. */
    private static byte escape(byte b) {
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

    private void escaped(MemorySegment utf8, int length) {
        ensure(6L * length + 2);
        out[size++] = '"';
        for (int i = 0; i < length; i++) {
            byte b = utf8.get(ValueLayout.JAVA_BYTE, i);
            byte letter = escape(b);
            if (letter == 0) {
                out[size++] = b;
            } else {
                out[size++] = '\\';
                out[size++] = letter;
                if (letter == 'u') {
                    out[size++] = '0';
                    out[size++] = '0';
                    out[size++] = HEX[b >> 4];
                    out[size++] = HEX[b & 0xf];
                }
            }
        }
        out[size++] = '"';
    }

    private void number(long value) {
        if (value < 0) {
            append(ascii(Long.toString(value)));
            return;
        }
        int digits = 1;
        for (long rest = value / 10; rest > 0; rest /= 10) {
            digits++;
        }
        ensure(digits);
        for (int i = size + digits - 1; i >= size; i--) {
            out[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        size += digits;
    }

    private void append(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, out, size, bytes.length);
        size += bytes.length;
    }

    /** Room for {@code more} bytes; an answer past what one array holds is refused, not wrapped around. */
    private void ensure(long more) {
        if (out.length - size < more) {
            if (size + more > MAX_ANSWER) {
                throw new IllegalStateException("a post answer of more than " + MAX_ANSWER + " bytes");
            }
            out = Arrays.copyOf(out, (int) Math.max(Math.min(2L * out.length, MAX_ANSWER), size + more));
        }
    }

    private static MemorySegment utf8(String text) {
        return MemorySegment.ofArray(text.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
