package dev.hotpath.apps.messages.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The messages table, created on first open; the lists of each user's messages are in a file of their
 * own ({@link ListIndex}).
 *
 * <p>{@code id} is the UUID's 16 bytes as a {@code BLOB}, not its 36-character text: SQLite compares
 * blobs with {@code memcmp}, which is id order (see {@link MessageId}); the key is less than half the
 * size in the table's id index and again in each list, which carry it; and a UUIDv7 grows with time, so
 * inserts append at the right edge of the id index instead of splitting pages at random.
 * {@code created_at} is the answer's text, so reads format nothing. An ordinary rowid table (not
 * {@code WITHOUT ROWID}): a message may be 4,000 bytes, far past the row size SQLite advises for a table
 * clustered on its key, and its rowids, which grow with every insert, are what {@link ListIndex} tells
 * listed rows from unlisted ones by.
 *
 * <p>A file made before the lists had them as indexes on this table, {@code messages_to_user_id} and
 * {@code messages_from_user_id}, written inside every commit: they are dropped here, and the lists'
 * first catch-up lists every message.
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
        DROP INDEX IF EXISTS messages_to_user_id;
        DROP INDEX IF EXISTS messages_from_user_id;
        """;

    private MessagesSchema() {
    }

    /**
     * Creates what is missing, drops the indexes of an older file, and commits; {@code db} is a write
     * connection in manual-commit mode.
     */
    public static void create(Connection db) throws SQLException {
        try (Statement s = db.createStatement()) {
            executeAll(s, DDL);
        }
        db.commit();
    }

    /** Runs each statement of {@code script}, statements separated by {@code ;} (none may hold one in its text). */
    static void executeAll(Statement s, String script) throws SQLException {
        for (String statement : script.split(";")) {
            if (!statement.isBlank()) {
                s.execute(statement);
            }
        }
    }
}
