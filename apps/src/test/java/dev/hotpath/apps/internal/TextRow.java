package dev.hotpath.apps.internal;

import dev.hotpath.store.RowQuery;
import java.nio.charset.StandardCharsets;

/** One row of text columns in hand (a null one is NULL), for testing what writes JSON from rows. */
public record TextRow(byte[]... columns) implements RowQuery.Rows {
    /** A row of the strings' UTF-8. */
    public static TextRow of(String... texts) {
        byte[][] columns = new byte[texts.length][];
        for (int i = 0; i < texts.length; i++) {
            columns[i] = texts[i] == null ? null : texts[i].getBytes(StandardCharsets.UTF_8);
        }
        return new TextRow(columns);
    }

    @Override
    public boolean next() {
        throw new UnsupportedOperationException("one row, in hand");
    }

    @Override
    public long getLong(int column) {
        throw new UnsupportedOperationException("text columns only");
    }

    @Override
    public int textLength(int column) {
        byte[] text = columns[column - 1];
        return text == null ? -1 : text.length;
    }

    @Override
    public void copyText(int column, byte[] into, int at) {
        byte[] text = columns[column - 1];
        if (text != null) {
            System.arraycopy(text, 0, into, at, text.length);
        }
    }

    @Override
    public void close() {
    }
}
