package dev.hotpath.apps.internal;

import java.nio.charset.StandardCharsets;

/** One row of text columns in hand (a null one is NULL), for testing what writes JSON from rows. */
public record TextRow(byte[]... columns) implements RowInHand {
    /** A row of the strings' UTF-8. */
    public static TextRow of(String... texts) {
        byte[][] columns = new byte[texts.length][];
        for (int i = 0; i < texts.length; i++) {
            columns[i] = texts[i] == null ? null : texts[i].getBytes(StandardCharsets.UTF_8);
        }
        return new TextRow(columns);
    }

    @Override
    public byte[] text(int column) {
        return columns[column - 1];
    }
}
