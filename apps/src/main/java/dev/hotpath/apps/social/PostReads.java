package dev.hotpath.apps.social;

import dev.hotpath.store.BytesQuery;
import dev.hotpath.store.SqliteDatabase;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * The social API's reads on one read-only connection, with its prepared statements (the rules allow
 * reusing statements and SQLite's page cache, nothing else): the feed and a post, answered as the
 * contract's JSON. SQLite writes each post object itself ({@code json_object} keeps the keys in the
 * order given and escapes what JSON needs), so a post crosses JDBC as one UTF-8 column read as bytes:
 * against five columns decoded into strings and re-encoded by a JSON generator, the feed's work around
 * its query fell from about 24 to 10 µs and its allocation to a sixth ({@code PostReadsBenchmark}); the
 * rows are read through SQLite's C API where the library allows ({@link BytesQuery}).
 * {@code like_count} is counted per request through {@code likes_post_id_idx}. Not thread-safe: one per
 * reading thread.
 */
public final class PostReads implements AutoCloseable {
    /** Posts in the feed. */
    public static final int FEED_SIZE = 20;
    private static final String POST = "SELECT json_object('id', p.id, 'body', p.body, 'created_at', p.created_at, "
        + "'author', u.username, 'like_count', (SELECT count(*) FROM likes l WHERE l.post_id = p.id)) "
        + "FROM posts p JOIN users u ON u.id = p.user_id";
    /** The feed's query: the newest {@value #FEED_SIZE} posts, each as one JSON object column. */
    public static final String FEED_QUERY = POST + " ORDER BY p.created_at DESC, p.id DESC LIMIT " + FEED_SIZE;
    private static final byte[] FEED_START = ascii("{\"posts\":[");
    private static final byte[] FEED_END = ascii("]}");
    private static final byte[] POST_START = ascii("{\"post\":");
    private static final byte[] POST_END = ascii("}");

    private final BytesQuery feed;
    private final BytesQuery byId;
    private final PreparedStatement one;
    private final byte[][] feedPosts = new byte[FEED_SIZE][];

    /**
     * Prepares the reads on {@code readOnly}; on a failure, what was prepared is closed again (SQLite
     * would not close the connection past a statement left prepared).
     */
    public PostReads(Connection readOnly) throws SQLException {
        BytesQuery feedQuery = BytesQuery.prepare(readOnly, FEED_QUERY);
        BytesQuery byIdQuery = null;
        try {
            byIdQuery = BytesQuery.prepare(readOnly, POST + " WHERE p.id = ?");
            this.one = readOnly.prepareStatement("SELECT 1");
        } catch (SQLException | RuntimeException e) {
            SqliteDatabase.closeAfter(e, feedQuery, byIdQuery);
            throw e;
        }
        this.feed = feedQuery;
        this.byId = byIdQuery;
    }

    /** A real {@code SELECT 1}, for {@code /health}. */
    public void ping() throws SQLException {
        try (ResultSet rs = one.executeQuery()) {
            if (!rs.next()) {
                throw new SQLException("SELECT 1 returned no row");
            }
        }
    }

    /** {@code {"posts":[...]}}: the newest posts. */
    public byte[] feed() throws SQLException {
        int posts = feed.run(feedPosts);
        int length = FEED_START.length + FEED_END.length + Math.max(posts - 1, 0);
        for (int i = 0; i < posts; i++) {
            length += feedPosts[i].length;
        }
        byte[] out = Arrays.copyOf(FEED_START, length);
        int at = FEED_START.length;
        for (int i = 0; i < posts; i++) {
            if (i > 0) {
                out[at++] = ',';
            }
            System.arraycopy(feedPosts[i], 0, out, at, feedPosts[i].length);
            at += feedPosts[i].length;
            feedPosts[i] = null;
        }
        System.arraycopy(FEED_END, 0, out, at, FEED_END.length);
        return out;
    }

    /** {@code {"post":{...}}}, or null when there is no post {@code id}. */
    public byte[] post(long id) throws SQLException {
        byId.bind(1, id);
        byte[] post = byId.first();
        if (post == null) {
            return null;
        }
        byte[] out = Arrays.copyOf(POST_START, POST_START.length + post.length + POST_END.length);
        System.arraycopy(post, 0, out, POST_START.length, post.length);
        System.arraycopy(POST_END, 0, out, POST_START.length + post.length, POST_END.length);
        return out;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** Closes every statement, also when one fails to close (what failed is thrown, suppressed on one exception). */
    @Override
    public void close() throws SQLException {
        SQLException failure = new SQLException("closing the social reads failed");
        SqliteDatabase.closeAfter(failure, feed, byId, one);
        if (failure.getSuppressed().length > 0) {
            throw failure;
        }
    }
}
