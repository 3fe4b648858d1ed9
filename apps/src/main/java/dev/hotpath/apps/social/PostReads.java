package dev.hotpath.apps.social;

import dev.hotpath.http.Response;
import dev.hotpath.store.RowQuery;
import dev.hotpath.store.SqliteDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The social API's reads on one read-only connection, with its prepared statements (the rules allow
 * reusing statements and SQLite's page cache, nothing else): the feed and a post, answered as the
 * contract's JSON. The rows are read through SQLite's C API where the library allows
 * ({@link RowQuery}), and their text goes from SQLite's memory into the answer ({@link PostJson}): on
 * that path the only array a read allocates is its answer. {@code like_count} is counted per request
 * through {@code likes_post_id_idx}. Not thread-safe: one per reading thread.
 */
public final class PostReads implements AutoCloseable {
    /** Posts in the feed. */
    public static final int FEED_SIZE = 20;
    private static final String POSTS = "SELECT " + PostJson.COLUMNS + " FROM posts p JOIN users u ON u.id = p.user_id";
    /** The feed's query: the newest {@value #FEED_SIZE} posts, in the columns {@link PostJson} reads. */
    public static final String FEED_QUERY = POSTS + " ORDER BY p.created_at DESC, p.id DESC LIMIT " + FEED_SIZE;

    private final RowQuery feed;
    private final RowQuery byId;
    private final PreparedStatement one;
    /** Room for a feed of typical posts at once; a larger one grows it. */
    private final PostJson json = new PostJson(8_192);

    /**
     * Prepares the reads on {@code readOnly}; on a failure, what was prepared is closed again (SQLite
     * would not close the connection past a statement left prepared).
     */
    public PostReads(Connection readOnly) throws SQLException {
        RowQuery feedQuery = RowQuery.prepare(readOnly, FEED_QUERY);
        RowQuery byIdQuery = null;
        try {
            byIdQuery = RowQuery.prepare(readOnly, POSTS + " WHERE p.id = ?");
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

    /** The {@code 200} answer {@code {"posts":[...]}}: the newest posts. */
    public Response feed() throws SQLException {
        try (RowQuery.Rows rows = feed.run()) {
            return json.feed(rows);
        }
    }

    /** The {@code 200} answer {@code {"post":{...}}}, or null when there is no post {@code id}. */
    public Response post(long id) throws SQLException {
        byId.bind(1, id);
        try (RowQuery.Rows rows = byId.run()) {
            return rows.next() ? json.post(rows) : null;
        }
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
