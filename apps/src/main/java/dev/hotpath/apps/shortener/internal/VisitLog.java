package dev.hotpath.apps.shortener.internal;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The format of one {@code visit_log} row: the absolute visit counts of the links that changed since
 * the previous row, as (id, count) pairs of 4 + 8 bytes, big-endian. Absolute counts make replaying
 * the log idempotent; one row per flush, whatever the number of links, costs one statement where an
 * UPDATE per link cost more than the redirects themselves (tens of thousands of links a second).
 */
final class VisitLog {
    private static final int ENTRY_BYTES = 12;

    private VisitLog() {
    }

    /** One row holding every count that changed since the last drain (empty when none did); writer thread only. */
    static byte[] drainChanged(LinkTable table) {
        ByteBuffer[] out = {ByteBuffer.allocate(1024)};
        table.drainChangedVisits((id, visits) -> {
            if (out[0].remaining() < ENTRY_BYTES) {
                out[0] = ByteBuffer.allocate(out[0].capacity() * 2).put(out[0].flip());
            }
            out[0].putInt(id).putLong(visits);
        });
        return Arrays.copyOf(out[0].array(), out[0].position());
    }

    /** Each (id, count) pair of {@code row}, in order; a truncated last entry is ignored. */
    static void forEach(byte[] row, LinkTable.VisitSink sink) {
        ByteBuffer counts = ByteBuffer.wrap(row);
        while (counts.remaining() >= ENTRY_BYTES) {
            sink.accept(counts.getInt(), counts.getLong());
        }
    }
}
