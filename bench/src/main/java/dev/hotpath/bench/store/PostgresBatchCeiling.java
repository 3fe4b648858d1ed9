package dev.hotpath.bench.store;

import dev.hotpath.apps.shortener.ClusterShortenerApp;
import dev.hotpath.store.PostgresConfig;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.Properties;

/**
 * The in-process ceiling of durable link inserts into PostgreSQL on this machine, for the scale-out
 * shortener's creates to be compared with in the same run: the shortener's own row (same table, same
 * URL as the harness's create scenario) inserted by one thread on one connection with
 * {@code synchronous_commit=on}, in transactions of BATCH rows, for SECONDS, two ways:
 * {@code rows} sends one {@code INSERT} per row and waits for each (what the node's writer does), and
 * {@code batch} sends the transaction's rows as one JDBC batch that the driver rewrites into
 * multi-row inserts ({@code reWriteBatchedInserts}). Prints rows per second for each. The database is
 * migrated first; the rows it inserts are deleted at the end.
 *
 * <p>{@code java -cp bench/target/benchmarks.jar dev.hotpath.bench.store.PostgresBatchCeiling URI [BATCH] [SECONDS]}
 */
public final class PostgresBatchCeiling {
    private static final String URL = "https://example.com/articles/2026/11/30/a-typical-slug-of-moderate-length";
    /** Far above any id a node of the same database hands out in a benchmark. */
    private static final long FIRST_ID = 1L << 46;
    private static final String INSERT = "INSERT INTO links (id, name, protected, long_url, created_at, expires_at)"
        + " VALUES (?, ?, ?, ?, ?, ?)";

    private PostgresBatchCeiling() {
    }

    public static void main(String[] args) throws Exception {
        PostgresConfig config = PostgresConfig.parse(args[0], System::getenv);
        int batch = args.length > 1 ? Integer.parseInt(args[1]) : 256;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        ClusterShortenerApp.migrate(config, "scrambled");
        Properties properties = new Properties();
        properties.setProperty("user", config.user());
        if (config.password() != null) {
            properties.setProperty("password", config.password());
        }
        properties.setProperty("options", "-c synchronous_commit=on");
        properties.setProperty("reWriteBatchedInserts", "true");
        try (Connection db = DriverManager.getConnection(config.jdbcUrl(), properties)) {
            db.setAutoCommit(false);
            long rows = run(db, batch, seconds, false);
            System.out.printf("rows batch %d: %d rows in %d s = %.0f rows/s%n", batch, rows, seconds, rows / (double) seconds);
            long batched = run(db, batch, seconds, true);
            System.out.printf("batch batch %d: %d rows in %d s = %.0f rows/s%n", batch, batched, seconds,
                batched / (double) seconds);
            try (Statement s = db.createStatement()) {
                s.executeUpdate("DELETE FROM links WHERE id >= " + FIRST_ID);
            }
            db.commit();
        }
    }

    private static long run(Connection db, int batch, int seconds, boolean jdbcBatch) throws SQLException {
        try (Statement clear = db.createStatement();
             PreparedStatement insert = db.prepareStatement(INSERT)) {
            clear.executeUpdate("DELETE FROM links WHERE id >= " + FIRST_ID);
            db.commit();
            long deadline = System.nanoTime() + seconds * 1_000_000_000L;
            long id = FIRST_ID;
            while (System.nanoTime() < deadline) {
                for (int i = 0; i < batch; i++) {
                    insert.setLong(1, id++);
                    insert.setNull(2, Types.VARCHAR);
                    insert.setBoolean(3, false);
                    insert.setString(4, URL);
                    insert.setLong(5, System.currentTimeMillis());
                    insert.setNull(6, Types.BIGINT);
                    if (jdbcBatch) {
                        insert.addBatch();
                    } else {
                        insert.executeUpdate();
                    }
                }
                if (jdbcBatch) {
                    insert.executeBatch();
                }
                db.commit();
            }
            return id - FIRST_ID;
        }
    }
}
