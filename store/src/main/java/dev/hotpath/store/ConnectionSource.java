package dev.hotpath.store;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Opens a {@link GroupCommitWriter}'s write connection, in manual-commit mode, for a database server
 * that can go away and come back ({@link PostgresDatabase#openWriter}). The writer calls it on its own
 * thread: before its first batch, and before the next batch after a batch failed on a connection that
 * is no longer valid. It must return within a bounded time (a connect timeout) or throw.
 */
@FunctionalInterface
public interface ConnectionSource {
    Connection open() throws SQLException;
}
