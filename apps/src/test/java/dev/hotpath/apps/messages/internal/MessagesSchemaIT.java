package dev.hotpath.apps.messages.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.store.Durability;
import dev.hotpath.store.SqliteDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The table as the writers to come rely on it: an insert is idempotent on id, an id is 16 bytes, and a
 * page of a user's messages is one index range walked backwards, never a sort.
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
                 MessageReads reads = new MessageReads(read, BodyColumn.TEXT)) {
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
    void listsWalkTheirIndexesBackwardsWithoutSorting() throws Exception {
        try (Connection db = SqliteDatabase.openForWriting(dir.resolve(MessagesSchema.FILE), Durability.NORMAL)) {
            MessagesSchema.create(db);
            String[][] queries = {{"to_user", MessageReads.TO_USER_BEFORE}, {"from_user", MessageReads.FROM_USER_BEFORE}};
            for (String[] query : queries) {
                assertThat(plan(db, "EXPLAIN QUERY PLAN ", query[1], "detail")).as(query[0])
                    .contains("USING INDEX messages_" + query[0] + "_id (" + query[0] + "=? AND id<?)")
                    .doesNotContain("TEMP B-TREE");
            }
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
