package dev.hotpath.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hotpath.store.testing.ThrowawayPostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class MigrationsIT {
    private static final String CURRENT = "db/migration/store_test";
    private static final String NEXT_RELEASE = "db/migration/store_test_next";

    @Test
    void appliesEveryMigrationOnceAndASecondRunIsANoOp() throws SQLException {
        try (PostgresDatabase database = databaseNamed("migrations_twice")) {
            assertThat(Migrations.apply(database.reads(), "store_test", CURRENT)).isEqualTo(2);
            assertThat(Migrations.apply(database.reads(), "store_test", CURRENT)).isZero();

            try (Connection db = database.reads().getConnection(); Statement statement = db.createStatement()) {
                statement.execute("INSERT INTO notes (id, body, author) VALUES (1, 'hi', 'me')");
                try (ResultSet result = statement.executeQuery("SELECT count(*) FROM flyway_history_store_test")) {
                    result.next();
                    assertThat(result.getInt(1)).isEqualTo(2);
                }
            }
        }
    }

    @Test
    void instancesStartingTogetherApplyEachMigrationOnce() throws Exception {
        try (PostgresDatabase database = databaseNamed("migrations_together");
             ExecutorService instances = Executors.newFixedThreadPool(2)) {
            Future<Integer> first = instances.submit(() -> Migrations.apply(database.reads(), "store_test", CURRENT));
            Future<Integer> second = instances.submit(() -> Migrations.apply(database.reads(), "store_test", CURRENT));

            assertThat(first.get() + second.get()).isEqualTo(2);
        }
    }

    @Test
    void refusesASchemaMigratedByANewerRelease() {
        try (PostgresDatabase database = databaseNamed("migrations_newer")) {
            Migrations.apply(database.reads(), "store_test", CURRENT, NEXT_RELEASE);

            assertThatThrownBy(() -> Migrations.apply(database.reads(), "store_test", CURRENT))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("The database schema is at version 3, newer than the newest migration in "
                    + CURRENT + " (2): run the release that migrated it.");
        }
    }

    @Test
    void requireCurrentAcceptsOnlyTheNewestSchemaAndChangesNothing() throws SQLException {
        try (PostgresDatabase database = databaseNamed("migrations_current")) {
            assertThatThrownBy(() -> Migrations.requireCurrent(database.reads(), "store_test", CURRENT))
                .isInstanceOf(Migrations.SchemaBehind.class)
                .hasMessage("The database has no store_test schema yet (this release's is at version 2)");
            try (Connection db = database.reads().getConnection(); Statement statement = db.createStatement();
                 ResultSet tables = statement.executeQuery(
                     "SELECT count(*) FROM pg_tables WHERE tablename = 'notes'")) {
                tables.next();
                assertThat(tables.getInt(1)).isZero();
            }

            Migrations.apply(database.reads(), "store_test", CURRENT);
            Migrations.requireCurrent(database.reads(), "store_test", CURRENT);

            assertThatThrownBy(() -> Migrations.requireCurrent(database.reads(), "store_test", CURRENT, NEXT_RELEASE))
                .isInstanceOf(Migrations.SchemaBehind.class)
                .hasMessage("The database schema is at version 2, older than this release's (3)");
            Migrations.apply(database.reads(), "store_test", CURRENT, NEXT_RELEASE);
            assertThatThrownBy(() -> Migrations.requireCurrent(database.reads(), "store_test", CURRENT))
                .isNotInstanceOf(Migrations.SchemaBehind.class)
                .hasMessageContaining("newer than the newest migration");
        }
    }

    @Test
    void refusesALocationThatDoesNotExist() {
        try (PostgresDatabase database = databaseNamed("migrations_missing")) {
            assertThatThrownBy(() -> Migrations.apply(database.reads(), "store_test", "db/migration/no_such_app"))
                .hasMessageContaining("no_such_app");
        }
    }

    private static PostgresDatabase databaseNamed(String name) {
        return new PostgresDatabase(PostgresConfig.parse(ThrowawayPostgres.shared().createDatabase(name), key -> null));
    }
}
