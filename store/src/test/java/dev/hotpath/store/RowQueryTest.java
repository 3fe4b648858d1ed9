package dev.hotpath.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RowQuery}'s two forms give the same rows and the same errors, and the build's own library
 * takes the native one on a connection for one thread, the JDBC one on a connection with SQLite's mutex.
 */
class RowQueryTest {
    private static final String UTF8 = "café ✓ 🚀 \"quoted\" \\ \u0001";
    private static final String ROWS = "SELECT id, v FROM t WHERE id > ? ORDER BY id";

    @TempDir
    Path dir;

    private Connection db;

    /** A connection for one thread ({@code SQLITE_OPEN_NOMUTEX}), as the servers' are, in manual-commit mode. */
    @BeforeEach
    void open() throws SQLException {
        db = SqliteDatabase.openForWriting(dir.resolve("q.db"), Durability.FULL);
        try (Statement s = db.createStatement()) {
            s.executeUpdate("CREATE TABLE t (id INTEGER PRIMARY KEY, v)");
            s.executeUpdate("INSERT INTO t VALUES (1, 'one'), (2, '" + UTF8 + "'), (3, NULL), (4, x''), (5, x'00ff10'), (6, ''), (7, 77)");
        }
        db.commit();
    }

    @AfterEach
    void close() throws SQLException {
        if (!db.isClosed()) {
            db.close();
        }
    }

    /** Each row's id and its {@code v} as text bytes (null for NULL), flat, from one whole run. */
    private static Object[] rows(RowQuery query) throws SQLException {
        List<Object> out = new ArrayList<>();
        try (RowQuery.Rows rows = query.run()) {
            while (rows.next()) {
                out.add(rows.getLong(1));
                out.add(text(rows, 2));
            }
        }
        return out.toArray();
    }

    /** The column's text through {@code textLength} and {@code copyText}, placed past a byte it must leave alone; null for NULL. */
    private static byte[] text(RowQuery.Rows rows, int column) throws SQLException {
        int length = rows.textLength(column);
        if (length < 0) {
            return null;
        }
        byte[] into = new byte[length + 2];
        into[0] = 'x';
        into[length + 1] = 'y';
        rows.copyText(column, into, 1);
        assertThat(into[0]).isEqualTo((byte) 'x');
        assertThat(into[length + 1]).isEqualTo((byte) 'y');
        return Arrays.copyOfRange(into, 1, length + 1);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theBuildsOwnLibraryRunsQueriesNativelyOnConnectionsForOneThread() throws SQLException {
        assertThat(SqliteLibrary.install()).isEqualTo(SqliteLibrary.Build.HOTPATH);
        try (RowQuery query = RowQuery.prepare(db, ROWS)) {
            assertThat(query).isInstanceOf(NativeRowQuery.class);
        }
        try (Connection shared = SqliteDatabase.open(dir.resolve("q.db")); RowQuery query = RowQuery.prepare(shared, ROWS)) {
            assertThat(query).as("a connection with SQLite's mutex").isInstanceOf(JdbcRowQuery.class);
            query.bind(1, 4);
            assertThat(rows(query)).containsExactly(new Object[] {5L, new byte[] {0, (byte) 0xff, 0x10}, 6L, new byte[0], 7L, utf8("77")});
        }
    }

    @Test
    void bothFormsFailAlike() throws SQLException {
        String bad = "SELECT nope FROM t";
        SQLException nativeFailure = catchSqlException(() -> NativeRowQuery.prepareNatively(db, bad));
        SQLException jdbcFailure = catchSqlException(() -> RowQuery.jdbc(db, bad));
        assertThat((Throwable) nativeFailure).isExactlyInstanceOf(jdbcFailure.getClass()).hasMessage(jdbcFailure.getMessage());
        assertThat(nativeFailure.getErrorCode()).isEqualTo(jdbcFailure.getErrorCode());

        String json = "SELECT id, json(v) FROM t WHERE id = 1";
        try (RowQuery nativeQuery = NativeRowQuery.prepareNatively(db, json); RowQuery jdbc = RowQuery.jdbc(db, json)) {
            SQLException nativeRun = catchSqlException(() -> rows(nativeQuery));
            SQLException jdbcRun = catchSqlException(() -> rows(jdbc));
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
        try (RowQuery nativeQuery = NativeRowQuery.prepareNatively(db, ROWS); RowQuery jdbc = RowQuery.jdbc(db, ROWS)) {
            for (RowQuery query : List.of(nativeQuery, jdbc)) {
                String form = query.getClass().getSimpleName();
                query.bind(1, 0);
                assertThat(rows(query)).as(form).containsExactly(new Object[] {
                    1L, utf8("one"), 2L, utf8(UTF8), 3L, null, 4L, new byte[0], 5L, new byte[] {0, (byte) 0xff, 0x10},
                    6L, new byte[0], 7L, utf8("77")});

                try (RowQuery.Rows rows = query.run()) {
                    assertThat(rows.next()).isTrue();
                    assertThat(text(rows, 1)).as(form + ": an integer read as text").isEqualTo(utf8("1"));
                    assertThat(rows.getLong(2)).as(form + ": text that is no number, read as one").isZero();
                }
                try (RowQuery.Rows rows = query.run()) {
                    assertThat(rows.next()).isTrue();
                    assertThat(rows.getLong(1)).as(form + ": a run after one closed early starts at the first row").isEqualTo(1);
                }
                RowQuery.Rows left = query.run();
                assertThat(left.next()).isTrue();
                assertThat(left.next()).isTrue();
                try (RowQuery.Rows rows = query.run()) {
                    assertThat(rows.next()).isTrue();
                    assertThat(rows.getLong(1)).as(form + ": a run after one left open starts at the first row").isEqualTo(1);
                }

                RowQuery.Rows open = query.run();
                assertThat(open.next()).isTrue();
                query.bind(1, 5);
                assertThat(rows(query)).as(form + ": a bind while a run is open ends the run and takes")
                    .containsExactly(new Object[] {6L, new byte[0], 7L, utf8("77")});

                query.bind(1, 6);
                try (RowQuery.Rows rows = query.run()) {
                    assertThat(rows.next()).isTrue();
                    assertThat(rows.getLong(1)).isEqualTo(7);
                    assertThat(rows.next()).isFalse();
                    assertThat(rows.next()).as(form + ": a run over stays over").isFalse();
                }
                query.bind(1, 7);
                assertThat(rows(query)).isEmpty();
            }
        }
    }

    /**
     * Text bound from bytes is stored as text, byte for byte, by both forms: from the middle of an array
     * (nothing around it taken), empty (not NULL), and longer than the native form's first staging
     * buffer, twice (it grows, then is reused).
     */
    @Test
    void bothFormsStoreTextBoundFromBytesAlike() throws SQLException {
        String insert = "INSERT INTO t (id, v) VALUES (?, ?)";
        byte[] framed = utf8("[" + UTF8 + "]");
        byte[] long1 = utf8("é".repeat(700));
        byte[] long2 = utf8("🚀".repeat(1500));
        try (RowQuery nativeQuery = NativeRowQuery.prepareNatively(db, insert); RowQuery jdbc = RowQuery.jdbc(db, insert);
             RowQuery stored = RowQuery.jdbc(db, "SELECT typeof(v), v FROM t WHERE id = ?")) {
            long id = 100;
            for (RowQuery query : List.of(nativeQuery, jdbc)) {
                String form = query.getClass().getSimpleName();
                List<byte[]> texts = List.of(Arrays.copyOfRange(framed, 1, framed.length - 1), new byte[0], long1, long2, utf8("short again"));
                query.bind(1, id);
                query.bind(2, framed, 1, framed.length - 2);
                query.execute();
                for (byte[] text : texts.subList(1, texts.size())) {
                    query.bind(1, id + texts.indexOf(text));
                    query.bind(2, text, 0, text.length);
                    query.execute();
                }
                for (int i = 0; i < texts.size(); i++) {
                    stored.bind(1, id + i);
                    try (RowQuery.Rows row = stored.run()) {
                        assertThat(row.next()).as(form + " row %d", i).isTrue();
                        assertThat(text(row, 1)).as(form + " row %d's type", i).isEqualTo(utf8("text"));
                        assertThat(text(row, 2)).as(form + " row %d", i).isEqualTo(texts.get(i));
                    }
                }
                id += 100;
            }
            assertThatThrownBy(() -> nativeQuery.bind(2, framed, 2, framed.length)).isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    /** A write that fails throws as JDBC's would and leaves the query ready: the next run stores its row. */
    @Test
    void aFailedWriteThrowsAlikeAndTheQueryRunsAgain() throws SQLException {
        String insert = "INSERT INTO t (id, v) VALUES (?, ?)";
        try (RowQuery nativeQuery = NativeRowQuery.prepareNatively(db, insert); RowQuery jdbc = RowQuery.jdbc(db, insert)) {
            List<SQLException> failures = new ArrayList<>();
            long id = 200;
            for (RowQuery query : List.of(nativeQuery, jdbc)) {
                query.bind(1, 1);
                query.bind(2, new byte[] {'x'}, 0, 1);
                failures.add(catchSqlException(() -> {
                    query.execute();
                    return null;
                }));
                query.bind(1, id);
                query.execute();
                try (RowQuery ids = RowQuery.jdbc(db, "SELECT v FROM t WHERE id = ?")) {
                    ids.bind(1, id);
                    try (RowQuery.Rows row = ids.run()) {
                        assertThat(row.next()).as(query.getClass().getSimpleName() + ": the row after a failure").isTrue();
                        assertThat(text(row, 1)).isEqualTo(utf8("x"));
                    }
                }
                id++;
            }
            assertThat((Throwable) failures.get(0)).isExactlyInstanceOf(failures.get(1).getClass()).hasMessage(failures.get(1).getMessage())
                .hasMessageContaining("UNIQUE constraint failed: t.id");
            assertThat(failures.get(0).getErrorCode()).isEqualTo(failures.get(1).getErrorCode());
        }
    }

    @Test
    void aRowWrittenMeanwhileIsSeenByTheNextRun() throws SQLException {
        try (RowQuery query = NativeRowQuery.prepareNatively(db, ROWS); Statement s = db.createStatement()) {
            query.bind(1, 5);
            assertThat(rows(query)).containsExactly(new Object[] {6L, new byte[0], 7L, utf8("77")});
            s.executeUpdate("DELETE FROM t WHERE id = 6");
            assertThat(rows(query)).as("this connection's own uncommitted delete").containsExactly(new Object[] {7L, utf8("77")});
            db.commit();
            assertThat(rows(query)).containsExactly(new Object[] {7L, utf8("77")});
        }
    }

    @Test
    void sqliteErrorsBecomeSqlExceptionsWithItsMessage() throws SQLException {
        assertThatThrownBy(() -> NativeRowQuery.prepareNatively(db, "SELECT nope FROM t"))
            .isInstanceOf(SQLException.class).hasMessageContaining("no such column: nope");
        try (RowQuery failing = NativeRowQuery.prepareNatively(db, "SELECT id, json(v) FROM t WHERE id = ?")) {
            failing.bind(1, 1);
            assertThatThrownBy(() -> rows(failing)).isInstanceOf(SQLException.class).hasMessageContaining("malformed JSON");
            failing.bind(1, 3);
            assertThat(rows(failing)).as("the query runs again after an error (json(NULL) is NULL)").containsExactly(new Object[] {3L, null});
            assertThatThrownBy(() -> failing.bind(3, 1)).isInstanceOf(SQLException.class).hasMessageContaining("column index out of range");
        }
    }

    /** The native form copies a column it just measured from the address it kept: never another column's, nor another row's. */
    @Test
    void copiesAColumnWhetherItWasJustMeasuredOrNot() throws SQLException {
        try (RowQuery nativeQuery = NativeRowQuery.prepareNatively(db, ROWS); RowQuery jdbc = RowQuery.jdbc(db, ROWS)) {
            for (RowQuery query : List.of(nativeQuery, jdbc)) {
                String form = query.getClass().getSimpleName();
                query.bind(1, 0);
                try (RowQuery.Rows rows = query.run()) {
                    while (rows.next()) {
                        byte[] unmeasured = new byte[64];
                        rows.copyText(2, unmeasured, 0); // on a row just stepped to, nothing measured yet
                        byte[] v = text(rows, 2);
                        byte[] id = text(rows, 1); // another column measured in between
                        byte[] again = new byte[64];
                        rows.copyText(2, again, 0);
                        int length = v == null ? 0 : v.length;
                        assertThat(Arrays.copyOf(unmeasured, length)).as(form).isEqualTo(v == null ? new byte[0] : v);
                        assertThat(Arrays.copyOf(again, length)).as(form).isEqualTo(Arrays.copyOf(unmeasured, length));
                        assertThat(Arrays.copyOfRange(unmeasured, length, 64)).as(form + ": nothing past the text")
                            .isEqualTo(new byte[64 - length]);
                        assertThat(new String(id, StandardCharsets.US_ASCII)).as(form).isEqualTo(Long.toString(rows.getLong(1)));
                    }
                }
            }
        }
    }

    @Test
    void aColumnIsRefusedOnceItsRunIsOver() throws SQLException {
        try (RowQuery query = NativeRowQuery.prepareNatively(db, ROWS)) {
            query.bind(1, 6);
            RowQuery.Rows rows = query.run();
            assertThat(rows.next()).isTrue();
            assertThat(rows.next()).isFalse();
            assertThatThrownBy(() -> rows.textLength(2)).isInstanceOf(IllegalStateException.class).hasMessageContaining("the run is over");
            assertThatThrownBy(() -> rows.copyText(2, new byte[8], 0)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> rows.getLong(1)).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void aClosedQueryIsRefusedAndItsConnectionCloses() throws SQLException {
        RowQuery query = NativeRowQuery.prepareNatively(db, ROWS);
        query.close();
        query.close();
        assertThatThrownBy(query::run).isInstanceOf(SQLException.class).hasMessageContaining("the query is closed");
        db.close();
        assertThat(db.isClosed()).isTrue();
    }

    @Test
    void aQueryWhoseConnectionClosedIsRefused() throws SQLException {
        RowQuery query = NativeRowQuery.prepareNatively(db, ROWS);
        assertThatThrownBy(db::close).as("SQLite keeps a connection with a statement prepared").isInstanceOf(SQLException.class);
        assertThatThrownBy(query::run).isInstanceOf(SQLException.class).hasMessageContaining("the connection is closed");
        query.close();
    }
}
