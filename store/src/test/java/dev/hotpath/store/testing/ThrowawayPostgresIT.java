package dev.hotpath.store.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

class ThrowawayPostgresIT {
    @Test
    void sharedServerAnswersInTheHotpathDatabaseWithDefaultDurability() throws SQLException {
        ThrowawayPostgres server = ThrowawayPostgres.shared();
        try (Connection db = DriverManager.getConnection(server.jdbcUrl(), ThrowawayPostgres.USER, null);
             Statement statement = db.createStatement()) {
            assertThat(single(statement, "SELECT current_database()")).isEqualTo(ThrowawayPostgres.DATABASE);
            assertThat(single(statement, "SHOW fsync")).isEqualTo("on");
            assertThat(single(statement, "SHOW synchronous_commit")).isEqualTo("on");
            assertThat(single(statement, "SHOW listen_addresses")).isEqualTo("127.0.0.1");
        }
        assertThat(ThrowawayPostgres.shared()).isSameAs(server);
    }

    @Test
    void keepsCommittedRowsAcrossAKillAndAStopOnTheSamePort() throws SQLException {
        try (ThrowawayPostgres server = ThrowawayPostgres.launch()) {
            int port = server.port();
            execute(server, "CREATE TABLE t (v int)", "INSERT INTO t VALUES (1)");

            server.kill();
            assertThatThrownBy(() -> DriverManager.getConnection(server.jdbcUrl(), ThrowawayPostgres.USER, null))
                .isInstanceOf(SQLException.class);
            server.start();
            execute(server, "INSERT INTO t VALUES (2)");

            server.stop();
            server.start();

            assertThat(server.port()).isEqualTo(port);
            try (Connection db = DriverManager.getConnection(server.jdbcUrl(), ThrowawayPostgres.USER, null);
                 Statement statement = db.createStatement()) {
                assertThat(single(statement, "SELECT string_agg(v::text, ',' ORDER BY v) FROM t")).isEqualTo("1,2");
            }
        }
    }

    @Test
    void closeKillsTheServerAndRemovesItsDirectory() {
        ThrowawayPostgres server = ThrowawayPostgres.launch();
        assertThat(server.directory()).isDirectory();

        server.close();

        assertThat(Files.exists(server.directory())).isFalse();
        assertThatThrownBy(() -> DriverManager.getConnection(server.jdbcUrl(), ThrowawayPostgres.USER, null))
            .isInstanceOf(SQLException.class);
    }

    @Test
    void createsSeparateDatabasesForTestsThatNeedTheirOwnSchema() throws SQLException {
        ThrowawayPostgres server = ThrowawayPostgres.shared();
        String uri = server.createDatabase("fixture_own_schema");

        assertThat(uri).isEqualTo("postgres://postgres@127.0.0.1:" + server.port() + "/fixture_own_schema");
        try (Connection db = DriverManager.getConnection(server.jdbcUrl("fixture_own_schema"), ThrowawayPostgres.USER,
            null); Statement statement = db.createStatement()) {
            assertThat(single(statement, "SELECT current_database()")).isEqualTo("fixture_own_schema");
        }
    }

    private static void execute(ThrowawayPostgres server, String... sql) throws SQLException {
        try (Connection db = DriverManager.getConnection(server.jdbcUrl(), ThrowawayPostgres.USER, null);
             Statement statement = db.createStatement()) {
            for (String each : sql) {
                statement.execute(each);
            }
        }
    }

    private static String single(Statement statement, String sql) throws SQLException {
        try (ResultSet result = statement.executeQuery(sql)) {
            result.next();
            return result.getString(1);
        }
    }
}
