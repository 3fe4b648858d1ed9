package dev.hotpath.apps.messages.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.store.Durability;
import dev.hotpath.store.GroupCommitConfig;
import dev.hotpath.store.SqliteDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The table as the writers to come rely on it: an insert is idempotent on id, an id is 16 bytes, a page
 * of a user's messages is one list range walked backwards plus the table's unlisted tail, and a file
 * made before the lists gets its messages listed.
 */
class MessagesSchemaIT {
    private static final MessageId ID = MessageId.parse("019ad7f0-3c00-7abc-8def-0123456789ab");

    @TempDir
    Path dir;

    private static int insert(Connection db, byte[] id, String body) throws SQLException {
        try (PreparedStatement insert = db.prepareStatement(SqliteMessageStore.INSERT)) {
            insert.setBytes(1, id);
            insert.setString(2, "alice");
            insert.setString(3, "bob");
            insert.setString(4, body);
            insert.setString(5, "2026-12-01T00:00:00.000Z");
            return insert.executeUpdate();
        }
    }

    @Test
    void insertingAStoredIdAgainChangesNothing() throws Exception {
        try (Connection db = SqliteDatabase.openForWriting(dir.resolve(MessagesSchema.FILE), Durability.NORMAL)) {
            MessagesSchema.create(db);
            assertThat(insert(db, ID.bytes(), "first")).isEqualTo(1);
            assertThat(insert(db, ID.bytes(), "second")).isZero();
            db.commit();
            try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*), max(body) FROM messages")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(1);
                assertThat(rs.getString(2)).isEqualTo("first");
            }
        }
    }

    @Test
    void creatingTheSchemaAgainKeepsTheMessages() throws Exception {
        try (Connection db = SqliteDatabase.openForWriting(dir.resolve(MessagesSchema.FILE), Durability.NORMAL)) {
            MessagesSchema.create(db);
            insert(db, ID.bytes(), "kept");
            db.commit();
            MessagesSchema.create(db);
            try (Connection read = SqliteDatabase.openForReading(dir.resolve(MessagesSchema.FILE));
                 MessageReads reads = new MessageReads(read, BodyColumn.TEXT, MessageReads.INDEXED_PAGES)) {
                assertThat(reads.byId(ID).message()).isEqualTo("kept");
            }
        }
    }

    @Test
    void anIdThatIsNotSixteenBytesIsNeverStored() throws Exception {
        try (Connection db = SqliteDatabase.openForWriting(dir.resolve(MessagesSchema.FILE), Durability.NORMAL)) {
            MessagesSchema.create(db);
            assertThat(insert(db, new byte[15], "short")).as("OR IGNORE skips a row that breaks the CHECK").isZero();
            try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM messages")) {
                rs.next();
                assertThat(rs.getInt(1)).isZero();
            }
        }
    }

    @Test
    void aPageWalksItsListBackwardsAndReadsOnlyTheUnlistedTailOfTheTable() throws Exception {
        Path file = dir.resolve(MessagesSchema.FILE);
        try (Connection db = SqliteDatabase.openForWriting(file, Durability.NORMAL)) {
            MessagesSchema.create(db);
            ListIndex.open(file).close();
            db.setAutoCommit(true);
            ListIndex.attachTo(db, file);
            String[][] queries = {{"inbox", "to_user", ListIndex.PAGES.toUserBefore()},
                {"outbox", "from_user", ListIndex.PAGES.fromUserBefore()}};
            for (String[] query : queries) {
                assertThat(plan(db, "EXPLAIN QUERY PLAN ", query[2], "detail")).as(query[0])
                    .contains("SEARCH lists." + query[0] + " USING PRIMARY KEY (" + query[1] + "=? AND id<?)")
                    .contains("SEARCH messages USING INTEGER PRIMARY KEY (rowid>?)")
                    .doesNotContain("SCAN messages");
            }
        }
    }

    @Test
    void theIndexesOfAnOlderFileAreDroppedAndItsMessagesListedAtTheWritersOpen() throws Exception {
        Path file = dir.resolve(MessagesSchema.FILE);
        try (Connection db = SqliteDatabase.openForWriting(file, Durability.NORMAL); Statement s = db.createStatement()) {
            s.execute("CREATE TABLE messages (id BLOB NOT NULL PRIMARY KEY CHECK (length(id) = 16), from_user TEXT NOT NULL,"
                + " to_user TEXT NOT NULL, body TEXT NOT NULL, created_at TEXT NOT NULL)");
            s.execute("CREATE INDEX messages_to_user_id ON messages (to_user, id)");
            s.execute("CREATE INDEX messages_from_user_id ON messages (from_user, id)");
            insert(db, ID.bytes(), "from before the lists");
            db.commit();
        }
        try (SqliteMessageStore store = SqliteMessageStore.open(file, Durability.NORMAL)) {
            store.openWriter(GroupCommitConfig.named("messages-writer-test")).close();
            try (Connection db = SqliteDatabase.openForReading(file); Statement s = db.createStatement()) {
                ListIndex.attachTo(db, file);
                try (ResultSet rs = s.executeQuery("SELECT (SELECT count(*) FROM sqlite_schema WHERE type = 'index'"
                    + " AND name LIKE 'messages_%'), (SELECT count(*) FROM lists.inbox WHERE to_user = 'bob'),"
                    + " (SELECT count(*) FROM lists.outbox WHERE from_user = 'alice'), (SELECT up_to FROM lists.listed)")) {
                    rs.next();
                    assertThat(rs.getInt(1)).as("the old indexes").isZero();
                    assertThat(rs.getInt(2)).as("listed in bob's inbox").isEqualTo(1);
                    assertThat(rs.getInt(3)).as("listed in alice's outbox").isEqualTo(1);
                    assertThat(rs.getLong(4)).as("up_to").isEqualTo(1);
                }
            }
            String page = new String(store.read(reads -> reads.page(new ListQuery(true, "bob", 10, null))),
                StandardCharsets.UTF_8);
            assertThat(page).contains("from before the lists");
        }
    }

    /** The plan of a page query before {@link #ID} ({@code explain} and {@code column} are the store's), a step a line. */
    static String plan(Connection db, String explain, String pageQuery, String column) throws SQLException {
        try (PreparedStatement plan = db.prepareStatement(explain + pageQuery)) {
            plan.setString(1, "bob");
            plan.setBytes(2, ID.bytes());
            plan.setInt(3, 51);
            StringBuilder steps = new StringBuilder();
            try (ResultSet rs = plan.executeQuery()) {
                while (rs.next()) {
                    steps.append(rs.getString(column)).append('\n');
                }
            }
            return steps.toString();
        }
    }
}
