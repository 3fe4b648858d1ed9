package dev.hotpath.apps.shortener.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.store.Migrations;
import dev.hotpath.store.PostgresConfig;
import dev.hotpath.store.PostgresDatabase;
import dev.hotpath.store.RowQuery;
import dev.hotpath.store.Transaction;
import dev.hotpath.store.Write;
import dev.hotpath.store.testing.ThrowawayPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The visit log's writes run here outside the group-commit writer, one transaction each, so that a test
 * can commit a flush and then report it failed: what the writer sees when a commit lands but its answer
 * is lost on the way back.
 */
class PostgresVisitFlushesIT {
    private static final long LINK = 5;

    private PostgresDatabase database;
    private final VisitCounts visits = new VisitCounts(walk -> { });
    private final CachedLink link = CachedLink.of(LINK, null, "https://a.example/visited", -1, false, 302);
    private PostgresLinkWrites writes;

    @BeforeEach
    void migratedDatabaseWithOneLink() throws SQLException {
        String name = "visit_flushes_" + System.nanoTime();
        String uri = ThrowawayPostgres.shared().createDatabase(name);
        database = new PostgresDatabase(PostgresConfig.parse(uri, env -> null));
        Migrations.apply(database.reads(), "shortener", ClusterShortener.MIGRATIONS);
        try (Connection db = database.reads().getConnection(); Statement sql = db.createStatement()) {
            sql.execute("INSERT INTO links (id, protected, long_url, created_at) VALUES (" + LINK
                + ", false, 'https://a.example/visited', 0)");
        }
        writes = new PostgresLinkWrites(null, visits, Clock.systemUTC());
    }

    @AfterEach
    void close() {
        database.close();
    }

    @Test
    void aFlushWhoseCommitAnswerWasLostIsSentAgainAndCountedOnce() throws SQLException {
        visits.count(link);
        visits.count(link);
        Write lost = writes.logVisits(() -> { });
        commit(lost);
        lost.failed(new SQLException("the connection dropped before the commit's answer"));
        assertThat(writes.hasUnsentVisits()).isTrue();

        visits.count(link); // waits while the lost flush is sent again
        Write again = writes.logVisits(() -> { });
        commit(again);
        again.committed();
        assertThat(writes.hasUnsentVisits()).isFalse();
        Write next = writes.logVisits(() -> { });
        commit(next);
        next.committed();
        commit(writes.foldVisits(() -> { }));

        assertThat(visitsOfTheLink()).isEqualTo(3);
    }

    @Test
    void aFlushThatFailedBeforeItsCommitIsStoredWhenSentAgain() throws SQLException {
        visits.count(link);
        Write failed = writes.logVisits(() -> { });
        rollBack(failed);
        failed.failed(new SQLException("rolled back"));

        Write again = writes.logVisits(() -> { });
        commit(again);
        again.committed();
        commit(writes.foldVisits(() -> { }));

        assertThat(visitsOfTheLink()).isEqualTo(1);
    }

    @Test
    void theLastFlushOfAStoppingNodeSendsTheUnsentFlushAndTheCountsSince() throws SQLException {
        visits.count(link);
        Write failed = writes.logVisits(() -> { });
        rollBack(failed);
        failed.failed(new SQLException("rolled back"));
        visits.count(link);
        visits.count(link);

        Write last = writes.logLastVisits();
        commit(last);
        last.committed();
        commit(writes.foldVisits(() -> { }));

        assertThat(visitsOfTheLink()).isEqualTo(3);
        assertThat(writes.hasUnsentVisits()).isFalse();
    }

    private void rollBack(Write write) throws SQLException {
        apply(write, false);
    }

    private void commit(Write write) throws SQLException {
        apply(write, true);
    }

    /** Applies {@code write} in a transaction of its own, then commits or rolls back. */
    private void apply(Write write, boolean commit) throws SQLException {
        try (Connection writer = database.openWriter()) {
            writer.setAutoCommit(false);
            write.apply(statementsOf(writer));
            if (commit) {
                writer.commit();
            } else {
                writer.rollback();
            }
        }
    }

    /** Each statement prepared anew; the connection's close closes them. */
    private static Transaction statementsOf(Connection connection) {
        return new Transaction() {
            @Override
            public PreparedStatement statement(String sql) throws SQLException {
                return connection.prepareStatement(sql);
            }

            @Override
            public RowQuery query(String sql) {
                throw new UnsupportedOperationException("visit writes run no SQLite query");
            }

            @Override
            public BatchedRow addBatch(String sql) {
                throw new UnsupportedOperationException("visit writes add no batched rows");
            }
        };
    }

    private long visitsOfTheLink() throws SQLException {
        try (Connection db = database.reads().getConnection(); Statement sql = db.createStatement();
             ResultSet row = sql.executeQuery("SELECT visits FROM links WHERE id = " + LINK)) {
            row.next();
            return row.getLong(1);
        }
    }
}
