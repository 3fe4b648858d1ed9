package dev.hotpath.apps.messages.internal;

import dev.hotpath.store.SqliteDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * What {@link ListIndex#open} does when SQLite refuses its work as damaged: tells whether the lists'
 * own file is the damaged one, and if so moves it (with its WAL) aside as {@value #DAMAGED}, for
 * whoever wants to look at it, so the lists can be built anew from the table. The open reads the
 * messages file too, and a damage there must not cost a healthy lists file (nor another process's
 * file in use): only a file that fails SQLite's {@code quick_check} on a connection of its own, with
 * nothing attached, is moved. Cost: one read of the whole lists file, on this failure path only.
 */
final class DamagedLists {
    /** Where a damaged lists file is moved; the last one damaged replaces the one before. */
    static final String DAMAGED = ListIndex.FILE + ".damaged";

    private DamagedLists() {
    }

    /**
     * Whether the lists file {@code lists}, read alone, is not a sound SQLite database. A check that
     * could not run (busy, cannot open) answers no and is added to {@code failure}, the error that
     * raised the question, so the operator sees both.
     */
    static boolean damaged(Path lists, SQLException failure) {
        try (Connection db = SqliteDatabase.openForReading(lists);
             Statement s = db.createStatement();
             ResultSet check = s.executeQuery("PRAGMA quick_check")) {
            return !check.next() || !"ok".equals(check.getString(1));
        } catch (SQLException e) {
            if (StoreFaults.damaged(e)) {
                return true;
            }
            failure.addSuppressed(e);
            return false;
        }
    }

    /**
     * Moves {@code lists} and its WAL to {@value #DAMAGED} beside it, drops its shared-memory index and
     * any left beside an earlier damaged copy, and returns where the file went.
     */
    static Path setAside(Path lists) throws IOException {
        Path kept = lists.resolveSibling(DAMAGED);
        Files.move(lists, kept, StandardCopyOption.REPLACE_EXISTING);
        Path wal = lists.resolveSibling(ListIndex.FILE + "-wal");
        Path keptWal = lists.resolveSibling(DAMAGED + "-wal");
        if (Files.exists(wal)) {
            Files.move(wal, keptWal, StandardCopyOption.REPLACE_EXISTING);
        } else {
            Files.deleteIfExists(keptWal); // not the WAL of an earlier damaged copy beside this one
        }
        Files.deleteIfExists(lists.resolveSibling(ListIndex.FILE + "-shm"));
        Files.deleteIfExists(lists.resolveSibling(DAMAGED + "-shm"));
        return kept;
    }
}
