package dev.hotpath.apps.messages.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The messages table and its two indexes, created on first open.
 *
 * <p>{@code id} is the UUID's 16 bytes as a {@code BLOB}, not its 36-character text: SQLite compares
 * blobs with {@code memcmp}, which is id order (see {@link MessageId}); the key is less than half the
 * size in the table's id index and again in each of the two list indexes, which carry it; and a UUIDv7
 * grows with time, so inserts append at the right edge of every index instead of splitting pages at
 * random. {@code created_at} is the answer's text, so reads format nothing. An ordinary rowid table
 * (not {@code WITHOUT ROWID}): a message may be 4,000 bytes, far past the row size SQLite advises for a
 * table clustered on its key.
 *
 * <p>The list indexes are {@code (to_user, id)} and {@code (from_user, id)}: a page of one user's
 * messages, newest first from an optional {@code before}, is one index range walked backwards.
 */
public final class MessagesSchema {
    /** The database file in the data directory. */
    public static final String FILE = "messages.db";
    static final String DDL = """
        CREATE TABLE IF NOT EXISTS messages (
          id BLOB NOT NULL PRIMARY KEY CHECK (length(id) = 16),
          from_user TEXT NOT NULL,
          to_user TEXT NOT NULL,
          body TEXT NOT NULL,
          created_at TEXT NOT NULL);
        CREATE INDEX IF NOT EXISTS messages_to_user_id ON messages (to_user, id);
        CREATE INDEX IF NOT EXISTS messages_from_user_id ON messages (from_user, id);
        """;

    private MessagesSchema() {
    }

    /** Creates what is missing and commits; {@code db} is a write connection in manual-commit mode. */
    public static void create(Connection db) throws SQLException {
        try (Statement s = db.createStatement()) {
            for (String statement : DDL.split(";")) {
                if (!statement.isBlank()) {
                    s.execute(statement);
                }
            }
        }
        db.commit();
    }
}
