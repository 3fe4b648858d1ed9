package dev.hotpath.apps.messages.internal;

import dev.hotpath.http.JsonBytes;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The messages API's reads on one read-only connection with its prepared statements: one per event
 * loop, so a read is a B-tree walk in SQLite's page cache on the loop that received it, with no hop to
 * another thread. Each query runs in its own read transaction and sees every commit that ended before
 * it, so a message is readable as soon as its {@code 201} is sent. Not thread-safe.
 *
 * <p>A page asks SQLite for one row more than the limit: whether it exists decides {@code next} (the id
 * of the page's last message when there is more, else null), so a client never fetches an empty page.
 */
public final class MessageReads implements AutoCloseable {
    private static final String COLUMNS = "SELECT id, from_user, to_user, body, created_at FROM messages ";
    /** A page of one recipient's messages older than an id: one backwards range of {@code (to_user, id)}. */
    static final String TO_USER_BEFORE = COLUMNS + "WHERE to_user = ? AND id < ? ORDER BY id DESC LIMIT ?";
    /** The same for one sender, on {@code (from_user, id)}. */
    static final String FROM_USER_BEFORE = COLUMNS + "WHERE from_user = ? AND id < ? ORDER BY id DESC LIMIT ?";

    private final PreparedStatement byId;
    private final PreparedStatement toUser;
    private final PreparedStatement toUserBefore;
    private final PreparedStatement fromUser;
    private final PreparedStatement fromUserBefore;
    private final PreparedStatement one;

    public MessageReads(Connection readOnly) throws SQLException {
        this.byId = readOnly.prepareStatement(COLUMNS + "WHERE id = ?");
        this.toUser = readOnly.prepareStatement(COLUMNS + "WHERE to_user = ? ORDER BY id DESC LIMIT ?");
        this.toUserBefore = readOnly.prepareStatement(TO_USER_BEFORE);
        this.fromUser = readOnly.prepareStatement(COLUMNS + "WHERE from_user = ? ORDER BY id DESC LIMIT ?");
        this.fromUserBefore = readOnly.prepareStatement(FROM_USER_BEFORE);
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

    /** The message {@code id}, or null. */
    public Message byId(MessageId id) throws SQLException {
        byId.setBytes(1, id.bytes());
        try (ResultSet rs = byId.executeQuery()) {
            return rs.next() ? message(rs) : null;
        }
    }

    /** The JSON of {@code {"messages":[...],"next":<id>|null}} for {@code query}. */
    public byte[] page(ListQuery query) throws SQLException {
        PreparedStatement statement = query.toUser()
            ? (query.before() == null ? toUser : toUserBefore)
            : (query.before() == null ? fromUser : fromUserBefore);
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

    private static Message message(ResultSet rs) throws SQLException {
        return new Message(MessageId.ofBytes(rs.getBytes(1)), rs.getString(2), rs.getString(3), rs.getString(4),
            rs.getString(5));
    }

    @Override
    public void close() throws SQLException {
        byId.close();
        toUser.close();
        toUserBefore.close();
        fromUser.close();
        fromUserBefore.close();
        one.close();
    }
}
