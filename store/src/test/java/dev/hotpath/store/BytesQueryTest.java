package dev.hotpath.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link BytesQuery}'s two forms give the same rows and the same errors, and the build's own library
 * takes the native one on a connection for one thread, the JDBC one on a connection with SQLite's mutex.
 */
class BytesQueryTest {
    private static final String UTF8 = "café ✓ 🚀 \"quoted\" \\ \u0001";
    private static final String ROWS = "SELECT v FROM t WHERE id > ? ORDER BY id";

    @TempDir
    Path dir;

    private Connection db;

    /** A connection for one thread ({@code SQLITE_OPEN_NOMUTEX}), as the servers' are, in manual-commit mode. */
    @BeforeEach
    void open() throws SQLException {
        db = SqliteDatabase.openForWriting(dir.resolve("q.db"), Durability.FULL);
        try (Statement s = db.createStatement()) {
            s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, v)");
            s.executeUpdate("INSERT INTO t VALUES (1, 'one'), (2, '" + UTF8 + "'), (3, NULL), (4, x''), (5, x'00ff10'), (6, '')");
        }
        db.commit();
    }

    @AfterEach
    void close() throws SQLException {
        if (!db.isClosed()) {
            db.close();
        }
    }

    @Test
    void theBuildsOwnLibraryRunsQueriesNativelyOnConnectionsForOneThread() throws SQLException {
        assertThat(SqliteLibrary.install()).isEqualTo(SqliteLibrary.Build.HOTPATH);
        try (BytesQuery query = BytesQuery.prepare(db, ROWS)) {
            assertThat(query).isInstanceOf(NativeBytesQuery.class);
        }
        try (Connection shared = SqliteDatabase.open(dir.resolve("q.db")); BytesQuery query = BytesQuery.prepare(shared, ROWS)) {
            assertThat(query).as("a connection with SQLite's mutex").isInstanceOf(JdbcBytesQuery.class);
            query.bind(1, 4);
            assertThat(query.first()).isEqualTo(new byte[] {0, (byte) 0xff, 0x10});
        }
    }

    @Test
    void bothFormsFailAlike() throws SQLException {
        String bad = "SELECT nope FROM t";
        SQLException nativeFailure = catchSqlException(() -> NativeBytesQuery.prepareNatively(db, bad));
        SQLException jdbcFailure = catchSqlException(() -> BytesQuery.jdbc(db, bad));
        assertThat((Throwable) nativeFailure).isExactlyInstanceOf(jdbcFailure.getClass()).hasMessage(jdbcFailure.getMessage());
        assertThat(nativeFailure.getErrorCode()).isEqualTo(jdbcFailure.getErrorCode());

        String json = "SELECT json(v) FROM t WHERE id = 1";
        try (BytesQuery nativeQuery = NativeBytesQuery.prepareNatively(db, json); BytesQuery jdbc = BytesQuery.jdbc(db, json)) {
            SQLException nativeRun = catchSqlException(nativeQuery::first);
            SQLException jdbcRun = catchSqlException(jdbc::first);
            assertThat((Throwable) nativeRun).isExactlyInstanceOf(jdbcRun.getClass()).hasMessage(jdbcRun.getMessage());
        }
    }

    private interface SqlCall {
        Object call() throws SQLException;
    }

    private static SQLException catchSqlException(SqlCall call) {
        try {
            call.call();
        } catch (SQLException e) {
            return e;
        }
        throw new AssertionError("no SQLException");
    }

    @Test
    void bothFormsReturnTheSameRows() throws SQLException {
        try (BytesQuery nativeQuery = NativeBytesQuery.prepareNatively(db, ROWS); BytesQuery jdbc = BytesQuery.jdbc(db, ROWS)) {
            for (BytesQuery query : List.of(nativeQuery, jdbc)) {
                query.bind(1, 0);
                byte[][] rows = new byte[10][];
                assertThat(query.run(rows)).as(query.getClass().getSimpleName()).isEqualTo(6);
                assertThat(Arrays.copyOf(rows, 6)).as(query.getClass().getSimpleName()).isDeepEqualTo(new byte[][] {
                    bytes("one"), bytes(UTF8), null, new byte[0], new byte[] {0, (byte) 0xff, 0x10}, new byte[0]});

                byte[][] two = new byte[2][];
                assertThat(query.run(two)).isEqualTo(2);
                assertThat(two).isDeepEqualTo(new byte[][] {bytes("one"), bytes(UTF8)});

                query.bind(1, 1);
                assertThat(query.first()).isEqualTo(bytes(UTF8));
                query.bind(1, 6);
                assertThat(query.first()).isNull();
                assertThat(query.run(rows)).isZero();
            }
        }
    }

    @Test
    void aRowWrittenMeanwhileIsSeenByTheNextRun() throws SQLException {
        try (BytesQuery query = NativeBytesQuery.prepareNatively(db, ROWS); Statement s = db.createStatement()) {
            query.bind(1, 5);
            assertThat(query.first()).isEqualTo(new byte[0]);
            s.executeUpdate("DELETE FROM t WHERE id = 6");
            assertThat(query.first()).as("this connection's own uncommitted delete").isNull();
            db.commit();
            assertThat(query.first()).isNull();
        }
    }

    @Test
    void sqliteErrorsBecomeSqlExceptionsWithItsMessage() throws SQLException {
        assertThatThrownBy(() -> NativeBytesQuery.prepareNatively(db, "SELECT nope FROM t"))
            .isInstanceOf(SQLException.class).hasMessageContaining("no such column: nope");
        try (BytesQuery failing = NativeBytesQuery.prepareNatively(db, "SELECT json(v) FROM t WHERE id = ?")) {
            failing.bind(1, 1);
            assertThatThrownBy(failing::first).isInstanceOf(SQLException.class).hasMessageContaining("malformed JSON");
            failing.bind(1, 3);
            assertThat(failing.first()).as("the query runs again after an error (json(NULL) is NULL)").isNull();
            assertThatThrownBy(() -> failing.bind(3, 1)).isInstanceOf(SQLException.class).hasMessageContaining("column index out of range");
        }
    }

    @Test
    void aClosedQueryIsRefusedAndItsConnectionCloses() throws SQLException {
        BytesQuery query = NativeBytesQuery.prepareNatively(db, ROWS);
        query.close();
        query.close();
        assertThatThrownBy(query::first).isInstanceOf(SQLException.class).hasMessageContaining("the query is closed");
        db.close();
        assertThat(db.isClosed()).isTrue();
    }

    @Test
    void aQueryWhoseConnectionClosedIsRefused() throws SQLException {
        BytesQuery query = NativeBytesQuery.prepareNatively(db, ROWS);
        assertThatThrownBy(db::close).as("SQLite keeps a connection with a statement prepared").isInstanceOf(SQLException.class);
        assertThatThrownBy(query::first).isInstanceOf(SQLException.class).hasMessageContaining("the connection is closed");
        query.close();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
