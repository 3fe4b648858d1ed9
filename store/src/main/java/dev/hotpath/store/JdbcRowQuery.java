package dev.hotpath.store;

import java.nio.charset.StandardCharsets;
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
    public void bind(int index, byte[] utf8, int from, int length) throws SQLException {
        statement.setString(index, new String(utf8, from, length, StandardCharsets.UTF_8));
    }

    @Override
    public void execute() throws SQLException {
        statement.executeUpdate();
    }

    @Override
    public Rows run() throws SQLException {
        return new JdbcRows(statement.executeQuery());
    }

    @Override
    public void close() throws SQLException {
        statement.close();
    }

    /** A result set's rows; each text column is one array, as JDBC reads it, kept for its copy. */
    private static final class JdbcRows implements Rows {
        private final ResultSet rows;
        private int textColumn;
        private byte[] text;

        JdbcRows(ResultSet rows) {
            this.rows = rows;
        }

        @Override
        public boolean next() throws SQLException {
            textColumn = 0;
            text = null;
            return rows.next();
        }

        @Override
        public long getLong(int column) throws SQLException {
            return rows.getLong(column);
        }

        @Override
        public int textLength(int column) throws SQLException {
            byte[] bytes = text(column);
            return bytes == null ? -1 : bytes.length;
        }

        @Override
        public void copyText(int column, byte[] into, int at) throws SQLException {
            byte[] bytes = text(column);
            if (bytes != null) {
                System.arraycopy(bytes, 0, into, at, bytes.length);
            }
        }

        /** The column's bytes, read once per row and column in turn. */
        private byte[] text(int column) throws SQLException {
            if (textColumn != column) {
                text = rows.getBytes(column);
                textColumn = column;
            }
            return text;
        }

        @Override
        public void close() throws SQLException {
            rows.close();
        }
    }
}
