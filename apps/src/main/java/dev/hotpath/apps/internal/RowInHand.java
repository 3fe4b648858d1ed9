package dev.hotpath.apps.internal;

import dev.hotpath.store.RowQuery;

/**
 * A row the app already holds, read as {@link RowQuery.Rows}, so that a JSON writer made for SQLite's
 * rows writes it exactly as it writes the stored row: a new post's or user's {@code 201} is the same
 * bytes every later read of it gives. One row and no cursor: {@link #next} is refused, {@link #close}
 * does nothing, and only text columns are read unless an implementation says otherwise.
 */
public interface RowInHand extends RowQuery.Rows {
    /** Column {@code column}'s text (the first is 1) as UTF-8, or null for a NULL. */
    byte[] text(int column);

    @Override
    default boolean next() {
        throw new UnsupportedOperationException("one row, in hand");
    }

    @Override
    default long getLong(int column) {
        throw new UnsupportedOperationException("column " + column + " of a row in hand is text");
    }

    @Override
    default int textLength(int column) {
        byte[] text = text(column);
        return text == null ? -1 : text.length;
    }

    @Override
    default void copyText(int column, byte[] into, int at) {
        byte[] text = text(column);
        if (text != null) {
            System.arraycopy(text, 0, into, at, text.length);
        }
    }

    @Override
    default void close() {
    }
}
