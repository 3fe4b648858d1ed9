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

    /**
     * {@code sql} as a {@link RowQuery} on the writer's connection, which must be SQLite's, prepared the
     * first time it is asked for: binding text from bytes and executing through SQLite's C API where the
     * build has it, it makes no object per write, where a JDBC statement takes each text as a string
     * and makes an array of it, a lambda and more per row. A write binds and executes
     * it, closes the rows of any run it starts before {@link Write#apply} returns (a statement left
     * part way through would fail the commit), and never closes the query itself.
     *
     * @throws SQLException on a writer whose connection is replaceable (PostgreSQL): queries are SQLite's
     */
    RowQuery query(String sql) throws SQLException;

    /**
     * Adds the parameters set on {@code statement(sql)} as one row of that statement's JDBC batch,
     * instead of executing it now. The rows of every write of the batch transaction go to the
     * database together, one round trip per statement, just before the commit (or at the end of this
     * write, when the writer retries a failed batch write by write). A row that fails there fails the
     * batch like a write that throws, and the retry isolates it.
     *
     * <p>Cost: one round trip for the whole batch instead of one per row, which on a networked
     * database (PostgreSQL) is most of a write's cost.
     *
     * @return the row, whose update count is known from {@link Write#committed()} on
     */
    BatchedRow addBatch(String sql) throws SQLException;

    /** A row added with {@link #addBatch}. */
    interface BatchedRow {
        /** How many rows the statement changed for this row: 0 for an insert that did nothing on a conflict. */
        int updateCount();
    }
}
