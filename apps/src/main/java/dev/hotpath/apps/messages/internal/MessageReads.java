package dev.hotpath.apps.messages.internal;

import dev.hotpath.http.JsonBytes;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The messages API's reads on one connection, each statement prepared on its first use and kept: with
 * SQLite one per event loop for the loop's life ({@link SqliteMessageStore}), with PostgreSQL one per
 * read on a pooled connection ({@link PostgresMessageStore}, whose driver caches the server-side
 * statements per connection). Each query runs in its own read transaction and sees every commit that
 * ended before it, so a message is readable as soon as its {@code 201} is sent. Not thread-safe.
 *
 * <p>A page asks SQLite for one row more than the limit: whether it exists decides {@code next} (the id
 * of the page's last message when there is more, else null), so a client never fetches an empty page.
 */
public final class MessageReads implements AutoCloseable {
    private static final String COLUMNS = "SELECT id, from_user, to_user, body, created_at FROM messages ";
    /**
     * Pages as one backwards range of an index on the table, {@code (to_user, id)} or {@code (from_user, id)}
     * (PostgreSQL's; SQLite's lists are {@link ListIndex#PAGES}).
     */
    static final PageQueries INDEXED_PAGES = new PageQueries(
        COLUMNS + "WHERE to_user = ? ORDER BY id DESC LIMIT ?",
        COLUMNS + "WHERE to_user = ? AND id < ? ORDER BY id DESC LIMIT ?",
        COLUMNS + "WHERE from_user = ? ORDER BY id DESC LIMIT ?",
        COLUMNS + "WHERE from_user = ? AND id < ? ORDER BY id DESC LIMIT ?");
    static final String BY_ID = COLUMNS + "WHERE id = ?";
    static final String ONE = "SELECT 1";

    private final Connection db;
    private final BodyColumn body;
    private final PageQueries pages;
    /** The statements prepared so far, by their SQL: at most six. */
    private final Map<String, PreparedStatement> statements = new HashMap<>(8);

    /**
     * @param body how the connection's store keeps a message's text
     * @param pages the SQL of a page on that store
     */
    public MessageReads(Connection db, BodyColumn body, PageQueries pages) {
        this.db = db;
        this.body = body;
        this.pages = pages;
    }

    private PreparedStatement statement(String sql) throws SQLException {
        PreparedStatement statement = statements.get(sql);
        if (statement == null) {
            statement = db.prepareStatement(sql);
            statements.put(sql, statement);
        }
        return statement;
    }

    /** A real {@code SELECT 1}, for {@code /health}. */
    public void ping() throws SQLException {
        try (ResultSet rs = statement(ONE).executeQuery()) {
            if (!rs.next()) {
                throw new SQLException("SELECT 1 returned no row");
            }
        }
    }

    /** The message {@code id}, or null. */
    public Message byId(MessageId id) throws SQLException {
        PreparedStatement byId = statement(BY_ID);
        byId.setBytes(1, id.bytes());
        try (ResultSet rs = byId.executeQuery()) {
            return rs.next() ? message(rs) : null;
        }
    }

    /** The JSON of {@code {"messages":[...],"next":<id>|null}} for {@code query}. */
    public byte[] page(ListQuery query) throws SQLException {
        PreparedStatement statement = statement(query.toUser()
            ? (query.before() == null ? pages.toUser() : pages.toUserBefore())
            : (query.before() == null ? pages.fromUser() : pages.fromUserBefore()));
        int at = 1;
        statement.setString(at++, query.user());
        if (query.before() != null) {
            statement.setBytes(at++, query.before().bytes());
        }
        statement.setInt(at, query.limit() + 1);
        List<Message> messages = new ArrayList<>(Math.min(query.limit() + 1, 16));
        try (ResultSet rs = statement.executeQuery()) {
            while (rs.next()) {
                messages.add(message(rs));
            }
        }
        boolean more = messages.size() > query.limit();
        if (more) {
            messages.removeLast();
        }
        return JsonBytes.write(json -> {
            json.writeStartObject();
            json.writeArrayFieldStart("messages");
            for (Message m : messages) {
                m.writeTo(json);
            }
            json.writeEndArray();
            if (more) {
                json.writeStringField("next", messages.getLast().id().toString());
            } else {
                json.writeNullField("next");
            }
            json.writeEndObject();
        });
    }

    private Message message(ResultSet rs) throws SQLException {
        return new Message(MessageId.ofBytes(rs.getBytes(1)), rs.getString(2), rs.getString(3), body.read(rs, 4),
            rs.getString(5));
    }

    /** Closes the statements; the connection is its owner's. */
    @Override
    public void close() throws SQLException {
        for (PreparedStatement statement : statements.values()) {
            statement.close();
        }
        statements.clear();
    }

    /**
     * The SQL of a page of one user's messages, newest first, each taking the user, then {@code before}
     * (in the two {@code *Before} queries), then the number of rows, in that order.
     */
    public record PageQueries(String toUser, String toUserBefore, String fromUser, String fromUserBefore) {
    }
}
