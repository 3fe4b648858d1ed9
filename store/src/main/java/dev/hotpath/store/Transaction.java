package dev.hotpath.store;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * What a {@link Write} sees of the batch transaction it runs in: prepared statements on the writer's
 * connection. The writer owns them: each SQL string is prepared once, on first use, reused by every
 * later write, and closed when the writer closes. A write sets the parameters it uses and executes;
 * it never closes a statement and never keeps one past {@link Write#apply}.
 *
 * <p>Preparing costs a parse and a plan in SQLite (tens of microseconds); reusing costs a reset, so
 * a write should pass constant SQL text, never text built from its values.
 */
public interface Transaction {
    /** The statement for {@code sql} on the writer's connection, prepared the first time it is asked for. */
    PreparedStatement statement(String sql) throws SQLException;
}
