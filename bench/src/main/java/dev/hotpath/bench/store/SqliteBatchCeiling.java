package dev.hotpath.bench.store;

import dev.hotpath.store.Durability;
import dev.hotpath.store.SqliteDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The in-process ceiling of durable link inserts on this machine: the shortener's own row (same table,
 * same columns, same URL as {@code bench/shortener/create.lua}) inserted by one thread in transactions
 * of BATCH rows under {@code synchronous=FULL} (WAL), for SECONDS; prints rows per second. The server's
 * durable creates are compared with it in the same run.
 *
 * <p>{@code java -cp bench/target/benchmarks.jar dev.hotpath.bench.store.SqliteBatchCeiling DIR [BATCH] [SECONDS]}
 */
public final class SqliteBatchCeiling {
    private static final String URL = "https://example.com/articles/2026/11/30/a-typical-slug-of-moderate-length";

    private SqliteBatchCeiling() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int batch = args.length > 1 ? Integer.parseInt(args[1]) : 256;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        Files.createDirectories(dir);
        Path file = dir.resolve("ceiling.db");
        Files.deleteIfExists(file);
        try (Connection db = SqliteDatabase.openForWriting(file, Durability.FULL)) {
            try (Statement s = db.createStatement()) {
                s.executeUpdate("CREATE TABLE links (id INTEGER PRIMARY KEY, name TEXT UNIQUE, long_url TEXT NOT NULL,"
                    + " created_at INTEGER NOT NULL, expires_at INTEGER, protected INTEGER NOT NULL DEFAULT 0,"
                    + " deleted_at INTEGER, visits INTEGER NOT NULL DEFAULT 0)");
            }
            db.commit();
            long rows = run(db, batch, seconds);
            System.out.printf("batch %d: %d rows in %d s = %.0f rows/s%n", batch, rows, seconds, rows / (double) seconds);
        }
    }

    private static long run(Connection db, int batch, int seconds) throws SQLException {
        try (PreparedStatement insert = db.prepareStatement("INSERT INTO links (id, name, long_url, created_at,"
            + " expires_at, protected) VALUES (?, ?, ?, ?, ?, ?)")) {
            long deadline = System.nanoTime() + seconds * 1_000_000_000L;
            long id = 0;
            while (System.nanoTime() < deadline) {
                for (int i = 0; i < batch; i++) {
                    insert.setLong(1, id++);
                    insert.setNull(2, java.sql.Types.VARCHAR);
                    insert.setString(3, URL);
                    insert.setLong(4, System.currentTimeMillis());
                    insert.setNull(5, java.sql.Types.INTEGER);
                    insert.setInt(6, 0);
                    insert.executeUpdate();
                }
                db.commit();
            }
            return id;
        }
    }
}
