package dev.hotpath.apps.social;

import dev.hotpath.apps.internal.JsonText;
import dev.hotpath.apps.internal.RowInHand;
import dev.hotpath.http.Response;
import dev.hotpath.store.RowQuery;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;

/**
 * The social API's post answers, written as bytes: {@code {"posts":[...]}}, {@code {"post":...}},
 * each post with the contract's keys in its order,
 * {@code {"id":..,"body":..,"created_at":..,"author":..,"like_count":..}}.
 *
 * <p>Why not the JSON generator every other answer uses ({@code JsonBytes}): a post's text is UTF-8
 * already, where SQLite holds it ({@link RowQuery.Rows#copyText}), and nearly every post has nothing to
 * escape, so it can be checked eight bytes at a time and copied into the answer whole. A feed so
 * written took 0.90× the time of SQLite writing each post object itself ({@code json_object}), where
 * jackson-core's generator, reused, writing the same rows took about 0.96×, and the server's CPU per
 * request in the social mix fell to about 0.95× with it (docs/BENCHMARKS.md). The keys are
 * constants; the numbers are the only values formatted. Text that needs escaping takes JSON's
 * two-character escapes, or {@code \\u00xx} for other control characters.
 *
 * <p>One instance per reading thread: it keeps the buffer answers are written into ({@link JsonText}),
 * which grows to the largest answer and stays (up to 1 MiB).
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

    private final JsonText json;

    PostJson(int capacity) {
        json = new JsonText(capacity);
    }

    /** The {@code 200} answer {@code {"posts":[...]}} with every row of {@code rows}. */
    Response feed(RowQuery.Rows rows) throws SQLException {
        json.clear();
        json.append(FEED_START);
        for (boolean first = true; rows.next(); first = false) {
            if (!first) {
                json.appendByte(',');
            }
            postOnRow(rows);
        }
        json.append(FEED_END);
        return answer(200);
    }

    /** The {@code 200} answer {@code {"post":{...}}} of the current row of {@code row}. */
    Response post(RowQuery.Rows row) throws SQLException {
        json.clear();
        json.append(POST_START);
        postOnRow(row);
        json.append(POST_END);
        return answer(200);
    }

    /** The post on the current row of {@code row}, read in the order of {@link #COLUMNS}. */
    private void postOnRow(RowQuery.Rows row) throws SQLException {
        json.append(ID);
        json.appendDecimal(row.getLong(1));
        json.append(BODY);
        string(row, 2);
        json.append(CREATED_AT);
        string(row, 3);
        json.append(AUTHOR);
        string(row, 4);
        json.append(LIKE_COUNT);
        json.appendDecimal(row.getLong(5));
        json.appendByte('}');
    }

    /** The {@code 201} answer {@code {"post":{...}}} of a post just written: it has no likes yet. */
    static Response created(long id, String body, String createdAt, String author) {
        PostJson post = new PostJson(128 + 3 * body.length());
        post.json.append(POST_START);
        try {
            post.postOnRow(new NewPost(id, utf8(body), utf8(createdAt), utf8(author)));
        } catch (SQLException e) {
            throw new IllegalStateException("a row in hand has no store to fail", e);
        }
        post.json.append(POST_END);
        return post.answer(201);
    }

    /** The answer with what was written: its bytes copied once, from this buffer into the answer's. */
    private Response answer(int status) {
        return Response.of(status, "application/json", json.bytes(), json.size());
    }

    /**
     * A JSON string of the column's UTF-8 text; every column written here is {@code NOT NULL} in the
     * schema. Text with nothing to escape is copied whole; other text is written byte by byte, escaped.
     */
    private void string(RowQuery.Rows row, int column) throws SQLException {
        if (!json.appendStringIfUnescaped(row, column)) {
            escaped(json.pending(), json.pendingLength());
        }
    }

    private void escaped(byte[] text, int length) {
        json.appendByte('"');
        for (int i = 0; i < length; i++) {
            json.appendEscaped(text[i], HEX);
        }
        json.appendByte('"');
    }

    /**
     * A post just written, as the row {@link #postOnRow} reads (its columns in the order of
     * {@link #COLUMNS}, no likes yet), so that a {@code 201} is written exactly as a read is.
     */
    private record NewPost(long id, byte[] body, byte[] createdAt, byte[] author) implements RowInHand {
        @Override
        public long getLong(int column) {
            return column == 1 ? id : 0;
        }

        @Override
        public byte[] text(int column) {
            return switch (column) {
                case 2 -> body;
                case 3 -> createdAt;
                case 4 -> author;
                default -> throw new IllegalArgumentException("no text in column " + column);
            };
        }
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
