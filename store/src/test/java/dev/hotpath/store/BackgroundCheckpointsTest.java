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
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
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

    /**
     * Under steady load the loop commits while a background checkpoint copies, so each checkpoint
     * leaves the last commits uncopied and SQLite never starts the WAL over. Here a reader's snapshot
     * holds each checkpoint back as those commits would; past the bound the committing connection's
     * {@code afterCommit} finishes the copy and its next write rewinds the WAL.
     */
    @Test
    void aWalThatCheckpointsNeverCatchUpWithIsRewoundPastTheBound() throws SQLException {
        Path file = dir.resolve("test.db");
        int bound = 200;
        int rows = 0;
        int largest = 0;
        int rewinds = 0;
        try (Connection committing = SqliteDatabase.openForWriting(file, Durability.NORMAL);
             Connection reader = SqliteDatabase.openForReading(file)) {
            try (Statement s = committing.createStatement()) {
                s.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)");
            }
            committing.commit();
            reader.setAutoCommit(false);
            try (BackgroundCheckpoints checkpoints = BackgroundCheckpoints.takeOver(committing, file, Durability.NORMAL,
                NEVER_DURING_THE_TEST, bound)) {
                int previous = 0;
                for (int round = 0; round < 60; round++) {
                    countItems(reader); // a snapshot the checkpoint cannot copy past
                    insertOneCommitEach(committing, rows, 10);
                    rows += 10;
                    BackgroundCheckpoints.Progress progress = checkpoints.checkpointNow();
                    assertThat(progress.copied()).as("held back by the reader").isLessThan(progress.walFrames());
                    reader.commit();
                    insertOneCommitEach(committing, rows, 1);
                    rows++;
                    checkpoints.afterCommit();
                    largest = Math.max(largest, progress.walFrames());
                    rewinds += progress.walFrames() < previous ? 1 : 0;
                    previous = progress.walFrames();
                }
            }
            assertThat(largest).as("the WAL passed the bound").isGreaterThanOrEqualTo(bound);
            assertThat(largest).as("and was rewound soon after").isLessThan(bound + 60);
            assertThat(rewinds).isGreaterThanOrEqualTo(2);
        }
        try (Connection reopened = SqliteDatabase.openForReading(file)) {
            assertThat(countItems(reopened)).isEqualTo(rows);
        }
    }

    /**
     * A loop's committer never checkpoints itself: past the bound it holds the writes offered meanwhile
     * (unanswered) while the checkpoint thread copies the whole WAL, then commits them, and that commit
     * starts the WAL over. The test's thread plays the loop, running what the committer hands it.
     */
    @Test
    void aLoopCommitterHoldsItsWritesWhileTheCheckpointThreadRewindsTheWal() throws Exception {
        Path file = dir.resolve("test.db");
        int bound = 200;
        BlockingQueue<Runnable> loopTasks = new LinkedBlockingQueue<>();
        Executor loop = loopTasks::add;
        Connection committing = SqliteDatabase.openForWriting(file, Durability.NORMAL);
        try (Statement s = committing.createStatement()) {
            s.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)");
        }
        committing.commit();
        int rows = 0;
        try (Connection reader = SqliteDatabase.openForReading(file);
             BackgroundCheckpoints checkpoints = BackgroundCheckpoints.takeOver(committing, file, Durability.NORMAL,
                 NEVER_DURING_THE_TEST, bound)) {
            LoopCommitter committer = new LoopCommitter(committing, 10, checkpoints);
            reader.setAutoCommit(false);
            countItems(reader); // a snapshot that holds every background checkpoint back, as steady commits do
            while (!checkpoints.rewindDue()) {
                commitOneWrite(committer, loop, loopTasks, rows++);
                checkpoints.checkpointNow();
            }
            reader.commit();
            int walBefore = checkpoints.checkpointNow().walFrames();
            assertThat(walBefore).isGreaterThanOrEqualTo(bound);

            ItemWrite due = new ItemWrite(rows++);
            assertThat(committer.offer(due, loop)).isTrue();
            loopTasks.take().run(); // the commit that finds the rewind due, and starts it
            assertThat(due.committed).isTrue();
            ItemWrite held = new ItemWrite(rows++);
            assertThat(committer.offer(held, loop)).isTrue();
            assertThat(committing.getAutoCommit()).as("the loop's transaction ended for the rewind").isTrue();
            assertThat(countItems(committing)).as("the loop reads on meanwhile").isEqualTo(rows - 1);
            assertThat(held.committed).isFalse();
            int tasks = 0;
            while (!held.committed) {
                Runnable task = loopTasks.poll(1, TimeUnit.MINUTES); // a deadline, not a pace
                assertThat(task).as("the checkpoint thread hands back").isNotNull();
                task.run();
                tasks++;
            }
            assertThat(tasks).as("only the hand-back: an offer during the rewind schedules no commit").isEqualTo(1);
            assertThat(loopTasks).isEmpty();
            assertThat(committing.getAutoCommit()).as("back in manual commit").isFalse();
            assertThat(checkpoints.rewindDue()).isFalse();
            BackgroundCheckpoints.Progress after = checkpoints.checkpointNow();
            assertThat(after.walFrames()).as("that commit started the WAL over").isLessThan(bound);
            committer.close();
        }
        try (Connection reopened = SqliteDatabase.openForReading(file)) {
            assertThat(countItems(reopened)).isEqualTo(rows);
        }
    }

    /** One write offered to the committer and committed at once (the test runs the loop's task). */
    private static void commitOneWrite(LoopCommitter committer, Executor loop, BlockingQueue<Runnable> loopTasks, int id) {
        ItemWrite write = new ItemWrite(id);
        assertThat(committer.offer(write, loop)).isTrue();
        loopTasks.remove().run();
        assertThat(write.committed).isTrue();
    }

    /** Inserts one row whose blob fills most of a page. */
    private static final class ItemWrite implements Write {
        private final int id;
        boolean committed;

        ItemWrite(int id) {
            this.id = id;
        }

        @Override
        public void apply(Transaction transaction) throws SQLException {
            PreparedStatement insert = transaction.statement("INSERT INTO items (id, payload) VALUES (?, ?)");
            insert.setInt(1, id);
            insert.setBytes(2, new byte[3_000]);
            insert.executeUpdate();
        }

        @Override
        public void committed() {
            committed = true;
        }

        @Override
        public void failed(Exception cause) {
            throw new AssertionError("write " + id + " failed", cause);
        }
    }

    /**
     * A checkpoint that met another one running (the other process's, on a file two writers share)
     * copied nothing and reports -1 frames of each: the rewind it was for must be tried again.
     */
    @Test
    void aCheckpointIsCompleteOnlyWhenItRanAndCopiedEveryFrame() {
        assertThat(new BackgroundCheckpoints.Progress(true, -1, -1).complete()).isFalse();
        assertThat(new BackgroundCheckpoints.Progress(false, 10, 9).complete()).isFalse();
        assertThat(new BackgroundCheckpoints.Progress(false, 10, 10).complete()).isTrue();
    }

    @Test
    void anInMemoryDatabaseHasNothingToCheckpoint() throws SQLException {
        try (Connection memory = SqliteDatabase.openForWriting(dir.resolve("unused.db"), Durability.NONE)) {
            assertThatThrownBy(() -> BackgroundCheckpoints.takeOver(memory, dir.resolve("unused.db"), Durability.NONE,
                NEVER_DURING_THE_TEST)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    private static int countItems(Connection db) throws SQLException {
        try (Statement s = db.createStatement(); ResultSet count = s.executeQuery("SELECT count(*) FROM items")) {
            count.next();
            return count.getInt(1);
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
