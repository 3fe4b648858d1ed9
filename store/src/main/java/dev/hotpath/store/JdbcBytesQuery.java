package dev.hotpath.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** {@link BytesQuery} through sqlite-jdbc: for a SQLite library that does not export SQLite's C API. */
final class JdbcBytesQuery extends BytesQuery {
    private final PreparedStatement statement;

    JdbcBytesQuery(PreparedStatement statement) {
        this.statement = statement;
    }

    @Override
    public void bind(int index, long value) throws SQLException {
        statement.setLong(index, value);
    }

    @Override
    public int run(byte[][] rows) throws SQLException {
        int count = 0;
        try (ResultSet rs = statement.executeQuery()) {
            while (count < rows.length && rs.next()) {
                rows[count++] = rs.getBytes(1);
            }
        }
        return count;
    }

    @Override
    public byte[] first() throws SQLException {
        try (ResultSet rs = statement.executeQuery()) {
            return rs.next() ? rs.getBytes(1) : null;
        }
    }

    @Override
    public void close() throws SQLException {
        statement.close();
    }
}
