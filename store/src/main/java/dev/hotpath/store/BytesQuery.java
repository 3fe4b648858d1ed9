package dev.hotpath.store;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * A prepared SQLite query whose rows are one column of bytes each (a JSON document SQLite wrote, for
 * instance), on a connection of {@link SqliteDatabase}. Where the SQLite library the process runs on
 * exports SQLite's C API (hotpath's own build, {@link SqliteLibrary}) and the connection is for one
 * thread, the query runs through that API on the connection's own handle, called with the JDK's
 * foreign-function API; else through JDBC. The rows are the same either way. The native path skips
 * what sqlite-jdbc spends around each call (a lock, a lambda, its parameters boxed, each column's
 * array made through JNI handles): see {@code PostReadsBenchmark.feedRows*} and docs/BENCHMARKS.md
 * for what that saves.
 *
 * <p>Not thread-safe: like its connection, for one thread at a time. Close it before its connection.
 */
public abstract sealed class BytesQuery implements AutoCloseable permits NativeBytesQuery, JdbcBytesQuery {
    BytesQuery() {
    }

    /**
     * Prepares {@code sql} on {@code connection}: natively where the library has SQLite's C API and the
     * connection is for one thread, else through JDBC.
     */
    public static BytesQuery prepare(Connection connection, String sql) throws SQLException {
        BytesQuery query = NativeBytesQuery.prepareIfSuited(connection, sql);
        return query != null ? query : jdbc(connection, sql);
    }

    /** The JDBC form, which {@link #prepare} falls back to; public for the benchmark that compares the two. */
    public static BytesQuery jdbc(Connection connection, String sql) throws SQLException {
        return new JdbcBytesQuery(connection.prepareStatement(sql));
    }

    /** Binds parameter {@code index} (the first is 1) to {@code value}, for the runs that follow. */
    public abstract void bind(int index, long value) throws SQLException;

    /**
     * Runs the query and puts its rows' column into {@code rows} from the start (null for a NULL), at
     * most as many as {@code rows} holds; returns how many it put there.
     */
    public abstract int run(byte[][] rows) throws SQLException;

    /** Runs the query: its first row's column, or null when it has no row or that column is NULL. */
    public abstract byte[] first() throws SQLException;

    @Override
    public abstract void close() throws SQLException;
}
