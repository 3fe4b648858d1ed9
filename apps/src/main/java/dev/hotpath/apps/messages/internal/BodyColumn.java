package dev.hotpath.apps.messages.internal;

import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * How a message's text is kept in its {@code body} column. A message may hold U+0000 (the contract
 * allows any text), which SQLite's {@code TEXT} keeps and PostgreSQL's {@code text} refuses (no type
 * of its character family can hold a NUL byte): there the column is {@code bytea} holding the text's
 * UTF-8 bytes, which round-trip exactly. Encoding costs one pass over at most 4,000 bytes, on the
 * writer's thread for an insert and on the reading thread for a read.
 */
public enum BodyColumn {
    /** SQLite {@code TEXT}. */
    TEXT {
        @Override
        void bind(PreparedStatement statement, int index, String text) throws SQLException {
            statement.setString(index, text);
        }

        @Override
        String read(ResultSet row, int index) throws SQLException {
            return row.getString(index);
        }
    },
    /** PostgreSQL {@code bytea} of the text's UTF-8 (the text holds no lone surrogate: validation refuses one). */
    UTF8_BYTES {
        @Override
        void bind(PreparedStatement statement, int index, String text) throws SQLException {
            statement.setBytes(index, text.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        String read(ResultSet row, int index) throws SQLException {
            return new String(row.getBytes(index), StandardCharsets.UTF_8);
        }
    };

    abstract void bind(PreparedStatement statement, int index, String text) throws SQLException;

    abstract String read(ResultSet row, int index) throws SQLException;
}
