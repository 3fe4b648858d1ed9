package dev.hotpath.store;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * A prepared SQLite statement on a connection of {@link SqliteDatabase}, bound to integers and UTF-8
 * text: a query whose rows are read forward, column by column, as integers and UTF-8 text, or a write
 * run to its end ({@link #execute}). Where the SQLite library the process runs on exports
 * SQLite's C API (hotpath's own build, {@link SqliteLibrary}) and the connection is for one thread,
 * the query runs through that API on the connection's own handle, called with the JDK's
 * foreign-function API, and a text column is copied from where SQLite holds it straight into the
 * caller's array; else through JDBC. The rows are the same either way, and so is what a statement
 * that writes ({@link #execute}) stores. The native path skips what sqlite-jdbc
 * spends around each call (a lock, a lambda, its parameters boxed, each column's array made through
 * JNI handles): see {@code PostReadsBenchmark} and docs/BENCHMARKS.md for what that saves.
 *
 * <p>Not thread-safe: like its connection, for one thread at a time, and one run at a time. Close it
 * before its connection.
 */
public abstract sealed class RowQuery implements AutoCloseable permits NativeRowQuery, JdbcRowQuery {
    RowQuery() {
    }

    /**
     * Prepares {@code sql} on {@code connection}: natively where the library has SQLite's C API and the
     * connection is for one thread, else through JDBC.
     */
    public static RowQuery prepare(Connection connection, String sql) throws SQLException {
        RowQuery query = NativeRowQuery.prepareIfSuited(connection, sql);
        return query != null ? query : jdbc(connection, sql);
    }

    /** The JDBC form, which {@link #prepare} falls back to; public for the benchmark that compares the two. */
    public static RowQuery jdbc(Connection connection, String sql) throws SQLException {
        return new JdbcRowQuery(connection.prepareStatement(sql));
    }

    /** Binds parameter {@code index} (the first is 1) to {@code value}, for the runs that follow; a run still open ends. */
    public abstract void bind(int index, long value) throws SQLException;

    /**
     * Binds parameter {@code index} (the first is 1) to the text {@code utf8[from, from + length)},
     * which must be valid UTF-8, for the runs that follow; a run still open ends. The native form hands
     * SQLite the bytes as they are, copied once into memory the query keeps and once by SQLite, and
     * makes no object; the JDBC form decodes them into a string for the driver, which encodes it again.
     */
    public abstract void bind(int index, byte[] utf8, int from, int length) throws SQLException;

    /**
     * Runs the query: its rows follow through the cursor returned. A query has one run at a time: a
     * new run, a bind or an {@link #execute}, ends the one before, and the native form hands out the same cursor each
     * time, so close a cursor only while its run is the current one.
     */
    public abstract Rows run() throws SQLException;

    /**
     * Runs a statement that returns no rows (an insert, an update) to its end with the parameters
     * bound; the query may run again. A statement that fails (a constraint, a full disk) throws and
     * leaves the query ready for its next run.
     */
    public abstract void execute() throws SQLException;

    @Override
    public abstract void close() throws SQLException;

    /** One run's rows, read forward. */
    public interface Rows extends AutoCloseable {
        /** Moves to the next row: false once there is none. */
        boolean next() throws SQLException;

        /** Column {@code column} (the first is 1) of the current row as an integer; 0 for a NULL. */
        long getLong(int column) throws SQLException;

        /**
         * The length in bytes of column {@code column} (the first is 1) of the current row read as
         * UTF-8 text (a blob's bytes as they are), or -1 for a NULL.
         */
        int textLength(int column) throws SQLException;

        /**
         * Copies column {@code column}'s text, the {@link #textLength} bytes of it, into
         * {@code into[at, at + textLength)}; nothing for a NULL. The native form copies from where
         * SQLite holds the text and makes no object: reading a page of rows this way leaves no garbage,
         * where a view of each column (three objects a column) was most of what a SQLite read allocated.
         */
        void copyText(int column, byte[] into, int at) throws SQLException;

        /** Ends the run; the query may run again. */
        @Override
        void close() throws SQLException;
    }
}
