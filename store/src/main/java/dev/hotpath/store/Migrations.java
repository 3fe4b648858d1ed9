package dev.hotpath.store;

import java.util.Arrays;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationInfoService;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.pattern.ValidatePattern;

/**
 * Brings a PostgreSQL schema up to date at start-up with Flyway: {@code V<n>__<what>.sql} files from
 * classpath folders the app names (each app keeps its own, {@code db/migration/<app>}), applied in
 * version order, each recorded in the app's own history table, {@code flyway_history_<app>}.
 *
 * <p>Several instances may start at once: Flyway holds a PostgreSQL advisory lock while it migrates,
 * so one applies the migrations and the others wait, then find nothing to do.
 *
 * <p>Strict both ways: a location that does not exist fails (a typo would otherwise apply nothing),
 * and a database migrated by a newer binary (a version this one does not have) is refused before
 * anything runs, since old code on a new schema would write rows the new code misreads. Flyway's own
 * default ignores such future versions; here none is ignored, so its validation refuses them too if
 * another instance migrates between the check and the lock.
 */
public final class Migrations {
    private Migrations() {
    }

    /**
     * Applies the migrations of {@code locations} (classpath folders such as
     * {@code db/migration/shortener}) that {@code db} lacks, recorded as {@code app}'s.
     *
     * @return how many ran; 0 when the schema was up to date
     * @throws IllegalStateException when the schema is newer than the newest migration here
     */
    public static int apply(DataSource db, String app, String... locations) {
        Flyway flyway = flyway(db, app, locations);
        refuseNewerSchema(flyway.info(), locations);
        return flyway.migrate().migrationsExecuted;
    }

    /**
     * Checks, without changing anything, that {@code db} is at exactly the newest migration of
     * {@code locations}: for an instance that never migrates, which would otherwise run against tables
     * it expects and that are not there yet.
     *
     * @throws SchemaBehind when the schema is older than the newest migration, or absent
     * @throws IllegalStateException when the schema is newer
     */
    public static void requireCurrent(DataSource db, String app, String... locations) {
        MigrationInfoService info = flyway(db, app, locations).info();
        refuseNewerSchema(info, locations);
        MigrationInfo[] pending = info.pending();
        if (pending.length > 0) {
            MigrationInfo current = info.current();
            String newestHere = pending[pending.length - 1].getVersion().toString();
            throw new SchemaBehind(current == null
                ? "The database has no " + app + " schema yet (this release's is at version " + newestHere + ")"
                : "The database schema is at version " + current.getVersion() + ", older than this release's ("
                    + newestHere + ")");
        }
    }

    /** The schema lacks migrations this release has: an instance that migrates must run first. */
    public static final class SchemaBehind extends IllegalStateException {
        SchemaBehind(String message) {
            super(message);
        }
    }

    private static Flyway flyway(DataSource db, String app, String[] locations) {
        if (locations.length == 0) {
            throw new IllegalArgumentException("name at least one classpath folder of migrations");
        }
        return Flyway.configure()
            .dataSource(db)
            .table(historyTable(app))
            .locations(Stream.of(locations).map(location -> "classpath:" + location).toArray(String[]::new))
            .failOnMissingLocations(true)
            .ignoreMigrationPatterns(new ValidatePattern[0])
            .load();
    }

    /**
     * {@code flyway_history_<app>}: each app keeps its own history, so two apps can share one database
     * (each has a {@code V1}; in one history table the second would be refused as a changed migration).
     */
    private static String historyTable(String app) {
        if (!app.matches("[a-z][a-z0-9_]*")) {
            throw new IllegalArgumentException("an app's name is [a-z][a-z0-9_]*, was " + app);
        }
        return "flyway_history_" + app;
    }

    private static void refuseNewerSchema(MigrationInfoService info, String[] locations) {
        MigrationInfo[] applied = info.applied();
        for (MigrationInfo migration : applied) {
            if (migration.getState() == MigrationState.FUTURE_SUCCESS
                || migration.getState() == MigrationState.FUTURE_FAILED) {
                String newestHere = Arrays.stream(info.all()).filter(each -> each.getState().isResolved())
                    .map(each -> each.getVersion().toString()).reduce((first, second) -> second).orElse("none");
                throw new IllegalStateException("The database schema is at version "
                    + applied[applied.length - 1].getVersion() + ", newer than the newest migration in "
                    + String.join(", ", locations) + " (" + newestHere + "): run the release that migrated it.");
            }
        }
    }
}
