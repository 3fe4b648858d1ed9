package dev.hotpath.store;

import java.lang.foreign.MemorySegment;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** {@link RowQuery} through sqlite-jdbc: for a SQLite library that does not export SQLite's C API. */
final class JdbcRowQuery extends RowQuery {
    private final PreparedStatement statement;

    JdbcRowQuery(PreparedStatement statement) {
        this.statement = statement;
    }

    @Override
    public void bind(int index, long value) throws SQLException {
        statement.setLong(index, value);
    }

    @Override
    public Rows run() throws SQLException {
        return new JdbcRows(statement.executeQuery());
    }

    @Override
    public void close() throws SQLException {
        statement.close();
    }

    /** A result set's rows; each text column is one array, as JDBC reads it. */
    private record JdbcRows(ResultSet rows) implements Rows {
        @Override
        public boolean next() throws SQLException {
            return rows.next();
        }

        @Override
        public long getLong(int column) throws SQLException {
            return rows.getLong(column);
        }

        @Override
        public MemorySegment getText(int column) throws SQLException {
            byte[] bytes = rows.getBytes(column);
            return bytes == null ? null : MemorySegment.ofArray(bytes).asReadOnly();
        }

        @Override
        public void close() throws SQLException {
            rows.close();
        }
    }
}
