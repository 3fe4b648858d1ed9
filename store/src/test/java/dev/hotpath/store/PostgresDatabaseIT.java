package dev.hotpath.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hotpath.store.testing.ThrowawayPostgres;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PostgresDatabaseIT {
    @Test
    void writeConnectionsCommitByHandAndSynchronouslyWithTheStatementTimeoutSet() throws SQLException {
        PostgresConfig config = PostgresConfig.parse(ThrowawayPostgres.shared().uri(), name -> null)
            .withStatementTimeout(Duration.ofSeconds(3));
        try (PostgresDatabase database = new PostgresDatabase(config); Connection writer = database.openWriter();
             Statement statement = writer.createStatement()) {
            assertThat(writer.getAutoCommit()).isFalse();
            assertThat(show(statement, "synchronous_commit")).isEqualTo("on");
            assertThat(show(statement, "statement_timeout")).isEqualTo("3s");
        }
    }

    @Test
    void readConnectionsCarryTheStatementTimeoutAndTheDatabaseIsReachable() throws SQLException {
        PostgresConfig config = PostgresConfig.parse(ThrowawayPostgres.shared().uri(), name -> null);
        try (PostgresDatabase database = new PostgresDatabase(config); Connection reader = database.reads().getConnection();
             Statement statement = reader.createStatement()) {
            assertThat(show(statement, "statement_timeout")).isEqualTo("10s");
            assertThat(database.reachable()).isTrue();
        }
    }

    @Test
    void refusesToStartAgainstAPortNobodyListensOn() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        PostgresConfig config = PostgresConfig.parse("postgres://app:hunter2@127.0.0.1:" + closedPort + "/nowhere",
            name -> null).withConnectTimeout(Duration.ofSeconds(1));

        assertThatThrownBy(() -> new PostgresDatabase(config))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageStartingWith("cannot connect to PostgreSQL at 127.0.0.1:" + closedPort + "/nowhere within PT1S")
            .hasMessageNotContaining("hunter2");
    }

    private static String show(Statement statement, String setting) throws SQLException {
        try (ResultSet result = statement.executeQuery("SHOW " + setting)) {
            result.next();
            return result.getString(1);
        }
    }
}
