package dev.hotpath.apps.shortener.internal;

import dev.hotpath.apps.internal.UtcMillisText;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Reads a shortener database into a {@link LinkTable} at start, verifying as it goes: ids contiguous
 * from 0, every URL in normal form, times the answers can write, the count within capacity. A store
 * that fails any check refuses to start, naming the first problem, rather than serve part of itself.
 * Then applies the visit log, folding it into {@code links} once it has grown long.
 */
final class SqliteLinkLoader {
    /** Visit-log rows (one per second of traffic) beyond which a start folds them into {@code links}. */
    private static final int FOLD_VISITS_AFTER = 3600;

    private SqliteLinkLoader() {
    }

    /**
     * Loads every link of {@code db} into {@code table}.
     *
     * @throws IllegalStateException naming the first check the store fails
     */
    static void load(Connection db, LinkTable table, int maxLinks) throws SQLException {
        try (Statement s = db.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, name, long_url, created_at, expires_at, protected, deleted_at,"
                 + " visits FROM links ORDER BY id")) {
            int expected = 0;
            while (rs.next()) {
                int id = rs.getInt(1);
                if (id != expected) {
                    throw new IllegalStateException("corrupt store: link ids are not contiguous (found " + id
                        + " where " + expected + " was expected)");
                }
                if (id >= maxLinks) {
                    throw new IllegalStateException("the store holds more links than --max-links " + maxLinks);
                }
                String url = rs.getString(3);
                if (!url.equals(normalOrNull(url))) {
                    throw new IllegalStateException("corrupt store: link " + id + " has an invalid url");
                }
                long created = rs.getLong(4);
                long expires = rs.getLong(5);
                boolean noExpiry = rs.wasNull();
                if (!UtcMillisText.writable(created) || !noExpiry && !UtcMillisText.writable(expires)) {
                    throw new IllegalStateException("corrupt store: link " + id
                        + " has a creation or expiry time outside 1970 to 9999");
                }
                rs.getLong(7);
                boolean live = rs.wasNull();
                table.publish(id, url, created, rs.getString(2),
                    rs.getInt(6) != 0, noExpiry ? -1 : expires, rs.getLong(8), !live);
                expected++;
            }
        }
    }

    private static String normalOrNull(String url) {
        try {
            return UrlNormalizer.normalize(url);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * Applies the visit log (absolute counts per link, in order, so replaying is idempotent); when it
     * has grown past {@link #FOLD_VISITS_AFTER} rows, folds the counts into {@code links} and empties it.
     */
    static void replayVisits(Connection db, LinkTable table) throws SQLException {
        int rows = 0;
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT counts FROM visit_log ORDER BY seq")) {
            while (rs.next()) {
                rows++;
                VisitLog.forEach(rs.getBytes(1), (id, visits) -> {
                    if (id >= 0 && id < table.size()) {
                        table.restoreVisits(id, visits);
                    }
                });
            }
        }
        if (rows > FOLD_VISITS_AFTER) {
            try (PreparedStatement update = db.prepareStatement("UPDATE links SET visits = ? WHERE id = ?")) {
                for (int id = 0; id < table.size(); id++) {
                    long visits = table.visits(id);
                    if (visits > 0) {
                        update.setLong(1, visits);
                        update.setInt(2, id);
                        update.addBatch();
                    }
                }
                update.executeBatch();
            }
            try (Statement s = db.createStatement()) {
                s.executeUpdate("DELETE FROM visit_log");
            }
            db.commit();
        }
    }
}
