package dev.hotpath.apps.shortener.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * The reads of the scale-out mode that go to PostgreSQL, each on a pooled connection borrowed for the
 * one statement. Blocking: called on the look-up executor ({@link LookupExecutor}), never on an event
 * loop.
 */
final class PostgresLinks {
    /** Ids a write node takes from the {@code link_ids} sequence at once (its {@code INCREMENT BY}). */
    static final int ID_BLOCK = 1024;
    private static final String COLUMNS = "SELECT id, name, protected, long_url, created_at, expires_at, deleted_at, visits"
        + " FROM links ";

    private final DataSource db;

    PostgresLinks(DataSource db) {
        this.db = db;
    }

    /**
     * The link {@code key} names: a {@code Long} is the id of a generated code, which a named link does
     * not answer to; a {@code String} is a name. Null when there is none.
     */
    LinkRow find(Object key) throws SQLException {
        try (Connection c = db.getConnection();
             PreparedStatement select = c.prepareStatement(key instanceof Long
                 ? COLUMNS + "WHERE id = ? AND name IS NULL" : COLUMNS + "WHERE name = ?")) {
            if (key instanceof Long id) {
                select.setLong(1, id);
            } else {
                select.setString(1, (String) key);
            }
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? row(rows) : null;
            }
        }
    }

    /** Up to {@code limit} live links with ids above {@code afterId}, in id order. */
    List<LinkRow> page(long afterId, int limit) throws SQLException {
        try (Connection c = db.getConnection();
             PreparedStatement select = c.prepareStatement(
                 COLUMNS + "WHERE id > ? AND deleted_at IS NULL ORDER BY id LIMIT ?")) {
            select.setLong(1, afterId);
            select.setInt(2, limit);
            List<LinkRow> page = new ArrayList<>(limit);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    page.add(row(rows));
                }
            }
            return page;
        }
    }

    /** Live links and the visits of all links, counted now: a scan of the table. */
    long[] liveLinksAndVisits() throws SQLException {
        try (Connection c = db.getConnection();
             PreparedStatement select = c.prepareStatement(
                 "SELECT count(*) FILTER (WHERE deleted_at IS NULL), coalesce(sum(visits), 0) FROM links");
             ResultSet rows = select.executeQuery()) {
            rows.next();
            return new long[] {rows.getLong(1), rows.getLong(2)};
        }
    }

    /** The highest id any write node may have handed out so far, or -1 before the first block. */
    long highestAllocatedId() throws SQLException {
        try (Connection c = db.getConnection();
             PreparedStatement select = c.prepareStatement("SELECT last_value, is_called FROM link_ids");
             ResultSet rows = select.executeQuery()) {
            rows.next();
            return rows.getBoolean(2) ? rows.getLong(1) + ID_BLOCK - 1 : -1;
        }
    }

    /** The row at {@code rows}, which selects {@code COLUMNS} in their order. */
    static LinkRow row(ResultSet rows) throws SQLException {
        long expiresAt = rows.getLong(6);
        if (rows.wasNull()) {
            expiresAt = -1;
        }
        long deletedAt = rows.getLong(7);
        if (rows.wasNull()) {
            deletedAt = -1;
        }
        return new LinkRow(rows.getLong(1), rows.getString(2), rows.getBoolean(3), rows.getString(4), rows.getLong(5),
            expiresAt, deletedAt, rows.getLong(8));
    }
}
