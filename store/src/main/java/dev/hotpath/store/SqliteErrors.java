package dev.hotpath.store;

import java.sql.SQLException;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/** What a failed SQLite statement means, for writes that answer a client error rather than a 500. */
public final class SqliteErrors {
    private SqliteErrors() {
    }

    /** Whether {@code failure} is a foreign key constraint refusing a row that names a missing parent. */
    public static boolean isForeignKeyViolation(Exception failure) {
        return failure instanceof SQLiteException e && e.getResultCode() == SQLiteErrorCode.SQLITE_CONSTRAINT_FOREIGNKEY;
    }
}
