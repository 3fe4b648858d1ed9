package dev.hotpath.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committing connection stops checkpointing, the checkpoint connection copies the whole WAL, and
 * every commit is still there afterwards. The interval is an hour, so the thread never runs during a
 * test: each checkpoint here is one the test asked for.
 */
class BackgroundCheckpointsTest {
    private static final Duration NEVER_DURING_THE_TEST = Duration.ofHours(1);
    /** Each row's blob fills most of a 4 KiB page, so each commit adds at least one WAL frame. */
    private static final int ROWS = 1_500;

    @TempDir
    Path dir;

    @Test
    void theCommittingConnectionLeavesTheWalToTheCheckpointThread() throws SQLException {
        Path file = dir.resolve("test.db");
        try (Connection committing = SqliteDatabase.openForWriting(file, Durability.NORMAL)) {
            try (Statement s = committing.createStatement()) {
                s.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)");
            }
            committing.commit();
            try (BackgroundCheckpoints checkpoints = BackgroundCheckpoints.takeOver(committing, file, Durability.NORMAL,
                NEVER_DURING_THE_TEST)) {
                insertOneCommitEach(committing, 0, ROWS);

                BackgroundCheckpoints.Progress first = checkpoints.checkpointNow();
                assertThat(first.walFrames()).as("SQLite's own checkpoint would have restarted the WAL at 1,000 pages")
                    .isGreaterThan(ROWS);
                assertThat(first.copied()).isEqualTo(first.walFrames());

                insertOneCommitEach(committing, ROWS, 1);
                BackgroundCheckpoints.Progress second = checkpoints.checkpointNow();
                assertThat(second.walFrames()).as("the first commit after a full checkpoint starts the WAL over")
                    .isLessThan(first.walFrames());
                assertThat(second.copied()).isEqualTo(second.walFrames());
            }
        }
        try (Connection reopened = SqliteDatabase.openForReading(file); Statement s = reopened.createStatement();
             ResultSet count = s.executeQuery("SELECT count(*) FROM items")) {
            count.next();
            assertThat(count.getInt(1)).isEqualTo(ROWS + 1);
        }
    }

    @Test
    void anInMemoryDatabaseHasNothingToCheckpoint() throws SQLException {
        try (Connection memory = SqliteDatabase.openForWriting(dir.resolve("unused.db"), Durability.NONE)) {
            assertThatThrownBy(() -> BackgroundCheckpoints.takeOver(memory, dir.resolve("unused.db"), Durability.NONE,
                NEVER_DURING_THE_TEST)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    private static void insertOneCommitEach(Connection db, int from, int count) throws SQLException {
        try (PreparedStatement insert = db.prepareStatement("INSERT INTO items (id, payload) VALUES (?, ?)")) {
            for (int i = from; i < from + count; i++) {
                insert.setInt(1, i);
                insert.setBytes(2, new byte[3_000]);
                insert.executeUpdate();
                db.commit();
            }
        }
    }
}
