package dev.hotpath.apps.messages.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hotpath.store.PostgresConfig;
import dev.hotpath.store.testing.ThrowawayPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The PostgreSQL table as the writers and reads rely on it: the migration makes it, an insert is
 * idempotent on id, any text (U+0000 included) reads back exactly, a bad id is an error of the row's own,
 * and a page of a user's messages is one index range walked backwards, never a sort.
 */
class PostgresMessageStoreIT {
    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static final MessageId ID = MessageId.parse("019ad7f0-3c00-7abc-8def-0123456789ab");

    private PostgresConfig config;
    private PostgresMessageStore store;
    private Connection db;

    @BeforeEach
    void open() throws SQLException {
        config = PostgresConfig.parse(ThrowawayPostgres.shared().createDatabase("message_schema_"
            + DATABASES.incrementAndGet()), name -> null);
        store = PostgresMessageStore.open(config);
        Properties properties = new Properties();
        properties.setProperty("user", config.user());
        db = DriverManager.getConnection(config.jdbcUrl(), properties);
    }

    @AfterEach
    void close() throws SQLException {
        db.close();
        store.close();
    }

    private int insert(byte[] id, String body) throws SQLException {
        try (PreparedStatement insert = db.prepareStatement(store.insertSql())) {
            insert.setBytes(1, id);
            insert.setString(2, "alice");
            insert.setString(3, "bob");
            store.body().bind(insert, 4, body);
            insert.setString(5, "2026-12-01T00:00:00.000Z");
            return insert.executeUpdate();
        }
    }

    @Test
    void insertingAStoredIdAgainChangesNothing() throws Exception {
        assertThat(insert(ID.bytes(), "first")).isEqualTo(1);
        assertThat(insert(ID.bytes(), "second")).isZero();
        assertThat(store.read(reads -> reads.byId(ID)).message()).isEqualTo("first");
    }

    @Test
    void everyTextReadsBackExactlyAsStoredNulIncluded() throws Exception {
        String text = "nul \u0000 tab \t astral \uD83D\uDE00 \u2028 é";
        insert(ID.bytes(), text);
        Message read = store.read(reads -> reads.byId(ID));
        assertThat(read).isEqualTo(new Message(ID, "alice", "bob", text, "2026-12-01T00:00:00.000Z"));
    }

    @Test
    void anIdThatIsNotSixteenBytesIsTheRowsOwnError() {
        assertThatThrownBy(() -> insert(new byte[15], "short"))
            .isInstanceOfSatisfying(SQLException.class, e -> {
                assertThat(e.getSQLState()).isEqualTo("23514");
                assertThat(store.isStoreFault(e)).isFalse();
            });
        assertThat(store.isStoreFault(new SQLException("I/O error", "08006"))).isTrue();
        assertThat(store.isStoreFault(new SQLException("driver failed"))).isTrue();
    }

    @Test
    void listsWalkTheirIndexesBackwardsWithoutSorting() throws Exception {
        try (Statement s = db.createStatement()) {
            s.execute("SET enable_seqscan = off"); // an empty table: make the planner show its index path
        }
        String[][] queries = {{"to_user", MessageReads.INDEXED_PAGES.toUserBefore()},
            {"from_user", MessageReads.INDEXED_PAGES.fromUserBefore()}};
        for (String[] query : queries) {
            assertThat(MessagesSchemaIT.plan(db, "EXPLAIN ", query[1], "QUERY PLAN")).as(query[0])
                .contains("Index Scan Backward using messages_" + query[0] + "_id")
                .doesNotContain("Sort");
        }
    }
}
