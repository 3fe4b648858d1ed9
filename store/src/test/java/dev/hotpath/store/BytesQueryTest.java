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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link BytesQuery}'s two forms give the same rows, and the build's own library takes the native one. */
class BytesQueryTest {
    private static final String UTF8 = "café ✓ 🚀 \"quoted\" \\ \u0001";
    private static final String ROWS = "SELECT v FROM t WHERE id > ? ORDER BY id";

    @TempDir
    Path dir;

    private Connection db;

    @BeforeEach
    void open() throws SQLException {
        db = SqliteDatabase.open(dir.resolve("q.db"));
        try (Statement s = db.createStatement()) {
            s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, v)");
            s.executeUpdate("INSERT INTO t VALUES (1, 'one'), (2, '" + UTF8 + "'), (3, NULL), (4, x''), (5, x'00ff10'), (6, '')");
        }
    }

    @Test
    void theBuildsOwnLibraryRunsQueriesNatively() throws SQLException {
        assertThat(SqliteLibrary.install()).isEqualTo(SqliteLibrary.Build.HOTPATH);
        try (BytesQuery query = BytesQuery.prepare(db, ROWS)) {
            assertThat(query).isInstanceOf(NativeBytesQuery.class);
        }
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
        assertThatThrownBy(query::first).isInstanceOf(SQLException.class).hasMessageContaining("closed");
        db.close();
        assertThat(db.isClosed()).isTrue();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
