package dev.hotpath.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hotpath.store.testing.Await;
import dev.hotpath.store.testing.ThrowawayPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PostgresGroupCommitIT {
    private static final String INSERT = "INSERT INTO events (id) VALUES (?)";
    private static final Duration OUTCOME_DEADLINE = Duration.ofSeconds(30);

    @Test
    void commitsQueuedWritesAndRollsBackAFailingOneAlone() throws Exception {
        try (PostgresDatabase database = sharedDatabaseWithTable("group_commit_batch")) {
            List<CompletableFuture<Void>> outcomes = new ArrayList<>();
            try (GroupCommitWriter writer = new GroupCommitWriter(database::openWriter,
                GroupCommitConfig.named("pg-writer").withCommitInterval(Duration.ofMillis(200)))) {
                IntStream.rangeClosed(1, 50).forEach(id -> outcomes.add(offer(writer, id)));
                outcomes.add(offer(writer, 7)); // a duplicate key: fails alone
            }

            assertThat(outcomes.subList(0, 50)).allSatisfy(outcome -> assertThat(outcome).isCompleted());
            assertThatThrownBy(() -> outcomes.get(50).get()).hasCauseInstanceOf(SQLException.class);
            assertThat(count(database)).isEqualTo(50);
        }
    }

    /** A {@link RowQuery} is SQLite's: a write asking for one on PostgreSQL fails alone, with that reason, and stores nothing. */
    @Test
    void refusesARowQueryOnAPostgresWriter() throws Exception {
        try (PostgresDatabase database = sharedDatabaseWithTable("group_commit_query")) {
            CompletableFuture<Void> outcome;
            try (GroupCommitWriter writer = new GroupCommitWriter(database::openWriter, GroupCommitConfig.named("pg-writer"))) {
                outcome = offer(writer, transaction -> transaction.query(INSERT));
                await(offer(writer, 1));
            }
            assertThatThrownBy(() -> await(outcome)).hasCauseInstanceOf(SQLException.class)
                .hasMessageContaining("a RowQuery runs on a SQLite writer");
            assertThat(ids(database)).containsExactly(1L);
        }
    }

    @Test
    void writerRecoversOnItsOwnAfterThePostgresServerIsKilledAndStarted() throws Exception {
        try (ThrowawayPostgres server = ThrowawayPostgres.launch();
             PostgresDatabase database = new PostgresDatabase(PostgresConfig.parse(server.uri(), name -> null)
                 .withConnectTimeout(Duration.ofSeconds(1)));
             GroupCommitWriter writer = new GroupCommitWriter(database::openWriter, GroupCommitConfig.named("pg-writer"))) {
            createTable(database);
            await(offer(writer, 1));

            server.kill();
            assertThatThrownBy(() -> await(offer(writer, 2))).isInstanceOf(ExecutionException.class);
            assertThatThrownBy(() -> await(offer(writer, 3))).isInstanceOf(ExecutionException.class);
            assertThat(database.reachable()).isFalse();
            server.start();
            await(offer(writer, 4));

            // The read pool reopens its connections in the background after the outage.
            Await.until("the read pool to reach PostgreSQL again", database::reachable);
            assertThat(ids(database)).containsExactly(1L, 4L);
        }
    }

    private static CompletableFuture<Void> offer(GroupCommitWriter writer, long id) {
        return offer(writer, transaction -> {
            PreparedStatement insert = transaction.statement(INSERT);
            insert.setLong(1, id);
            insert.executeUpdate();
        });
    }

    /** What a write does in its transaction. */
    private interface Apply {
        void apply(Transaction transaction) throws SQLException;
    }

    /** Offers a write that does {@code apply}; its outcome completes when the writer tells it. */
    private static CompletableFuture<Void> offer(GroupCommitWriter writer, Apply apply) {
        CompletableFuture<Void> outcome = new CompletableFuture<>();
        boolean queued = writer.offer(new Write() {
            @Override
            public void apply(Transaction transaction) throws SQLException {
                apply.apply(transaction);
            }

            @Override
            public void committed() {
                outcome.complete(null);
            }

            @Override
            public void failed(Exception cause) {
                outcome.completeExceptionally(cause);
            }
        });
        assertThat(queued).isTrue();
        return outcome;
    }

    private static void await(CompletableFuture<Void> outcome)
        throws ExecutionException, InterruptedException, TimeoutException {
        outcome.get(OUTCOME_DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** A new database {@code name} on the shared server, with the events table. */
    private static PostgresDatabase sharedDatabaseWithTable(String name) throws SQLException {
        PostgresDatabase database = new PostgresDatabase(
            PostgresConfig.parse(ThrowawayPostgres.shared().createDatabase(name), ignored -> null));
        try {
            createTable(database);
            return database;
        } catch (SQLException | RuntimeException e) {
            database.close();
            throw e;
        }
    }

    private static void createTable(PostgresDatabase database) throws SQLException {
        try (Connection db = database.reads().getConnection(); Statement statement = db.createStatement()) {
            statement.execute("CREATE TABLE events (id bigint PRIMARY KEY)");
        }
    }

    private static long count(PostgresDatabase database) throws SQLException {
        return ids(database).size();
    }

    private static List<Long> ids(PostgresDatabase database) throws SQLException {
        try (Connection db = database.reads().getConnection(); Statement statement = db.createStatement();
             ResultSet result = statement.executeQuery("SELECT id FROM events ORDER BY id")) {
            List<Long> ids = new ArrayList<>();
            while (result.next()) {
                ids.add(result.getLong(1));
            }
            return ids;
        }
    }
}
