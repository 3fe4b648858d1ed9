package dev.hotpath.apps.social;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The social API's reads on one read-only connection, with its prepared statements (the rules allow
 * reusing statements and SQLite's page cache, nothing else): the feed and a post, answered as the
 * contract's JSON, written field by field in its key order straight from the result set.
 * {@code like_count} is counted per request through {@code likes_post_id_idx}. Not thread-safe: one
 * per reading thread.
 */
public final class PostReads implements AutoCloseable {
    /** Posts in the feed. */
    public static final int FEED_SIZE = 20;
    private static final JsonFactory JSON = new JsonFactory();
    private static final String POST = "SELECT p.id, p.body, p.created_at, u.username, "
        + "(SELECT count(*) FROM likes l WHERE l.post_id = p.id) FROM posts p JOIN users u ON u.id = p.user_id";

    private final PreparedStatement feed;
    private final PreparedStatement byId;
    private final PreparedStatement one;

    public PostReads(Connection readOnly) throws SQLException {
        this.feed = readOnly.prepareStatement(POST + " ORDER BY p.created_at DESC, p.id DESC LIMIT " + FEED_SIZE);
        this.byId = readOnly.prepareStatement(POST + " WHERE p.id = ?");
        this.one = readOnly.prepareStatement("SELECT 1");
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
        ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        try (JsonGenerator json = JSON.createGenerator(out, JsonEncoding.UTF8); ResultSet rs = feed.executeQuery()) {
            json.writeStartObject();
            json.writeArrayFieldStart("posts");
            while (rs.next()) {
                writePost(json, rs);
            }
            json.writeEndArray();
            json.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** {@code {"post":{...}}}, or null when there is no post {@code id}. */
    public byte[] post(long id) throws SQLException {
        byId.setLong(1, id);
        ByteArrayOutputStream out = new ByteArrayOutputStream(768);
        try (ResultSet rs = byId.executeQuery()) {
            if (!rs.next()) {
                return null;
            }
            try (JsonGenerator json = JSON.createGenerator(out, JsonEncoding.UTF8)) {
                json.writeStartObject();
                json.writeFieldName("post");
                writePost(json, rs);
                json.writeEndObject();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** {@code {"id","body","created_at","author","like_count"}} from a row of {@link #POST}. */
    static void writePost(JsonGenerator json, ResultSet row) throws IOException, SQLException {
        json.writeStartObject();
        json.writeNumberField("id", row.getLong(1));
        json.writeStringField("body", row.getString(2));
        json.writeStringField("created_at", row.getString(3));
        json.writeStringField("author", row.getString(4));
        json.writeNumberField("like_count", row.getLong(5));
        json.writeEndObject();
    }

    @Override
    public void close() throws SQLException {
        feed.close();
        byId.close();
        one.close();
    }
}
