package dev.hotpath.apps.messages.internal;

import java.sql.SQLException;

/**
 * Tells a failure of the store (busy past the busy timeout, I/O error, disk full, read-only, cannot
 * open, out of memory, corrupt) from a failure of one row: the stream worker backs off and retries the
 * whole batch later on the first, and counts the second against the entry (dead-lettered after
 * {@link StreamWorker#MAX_DELIVERIES}). sqlite-jdbc puts the result code in
 * {@link SQLException#getErrorCode()}; its low byte is the primary code (an extended code keeps it).
 */
final class StoreFaults {
    private static final int BUSY = 5;
    private static final int LOCKED = 6;
    private static final int NOMEM = 7;
    private static final int READONLY = 8;
    private static final int IOERR = 10;
    private static final int CORRUPT = 11;
    private static final int FULL = 13;
    private static final int CANTOPEN = 14;
    private static final int PROTOCOL = 15;

    private StoreFaults() {
    }

    /** Whether {@code failure} is the store's, not the row's: retrying later can succeed. */
    static boolean isStoreFault(SQLException failure) {
        return switch (failure.getErrorCode() & 0xFF) {
            case BUSY, LOCKED, NOMEM, READONLY, IOERR, CORRUPT, FULL, CANTOPEN, PROTOCOL -> true;
            default -> false;
        };
    }
}
