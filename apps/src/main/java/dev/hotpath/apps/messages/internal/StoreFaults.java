package dev.hotpath.apps.messages.internal;

import java.sql.SQLException;

/**
 * Tells a failure of the store from a failure of one row: the stream worker backs off and retries the
 * whole batch later on the first, and counts the second against the entry (dead-lettered after
 * {@link StreamWorker#MAX_DELIVERIES}). A wrong "store" answer delays an entry; a wrong "row" answer
 * parks a message that retrying would have stored, so what is not clearly the row's is the store's
 * where the codes allow telling. Also tells a damaged SQLite file ({@link #damaged}), for the lists'
 * recovery at open ({@link DamagedLists}).
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
    private static final int NOTADB = 26;

    private StoreFaults() {
    }

    /**
     * SQLite: busy past the busy timeout, locked, out of memory, read-only, I/O error, corrupt, full,
     * cannot open, protocol, not a database. sqlite-jdbc puts the result code in
     * {@link SQLException#getErrorCode()}; its low byte is the primary code (an extended code keeps it).
     */
    static boolean sqlite(SQLException failure) {
        return switch (failure.getErrorCode() & 0xFF) {
            case BUSY, LOCKED, NOMEM, READONLY, IOERR, CORRUPT, FULL, CANTOPEN, PROTOCOL, NOTADB -> true;
            default -> false;
        };
    }

    /** SQLite: the file is damaged, not a database or a page SQLite cannot make sense of. */
    static boolean damaged(SQLException failure) {
        int primary = failure.getErrorCode() & 0xFF;
        return primary == CORRUPT || primary == NOTADB;
    }

    /**
     * PostgreSQL: everything but the two SQLSTATE classes that are about the row's values, {@code 22}
     * (data exception) and {@code 23} (integrity constraint violation). So a lost connection
     * ({@code 08}, or no SQLSTATE: the driver's own I/O failure), a cancelled or timed-out statement,
     * a shutdown ({@code 57}), a full disk ({@code 53}), a missing table ({@code 42}) or a transaction
     * already aborted ({@code 25P02}) are all retried, never counted against an entry.
     */
    static boolean postgres(SQLException failure) {
        String state = failure.getSQLState();
        return state == null || !(state.startsWith("22") || state.startsWith("23"));
    }
}
