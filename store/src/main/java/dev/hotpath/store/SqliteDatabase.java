package dev.hotpath.store;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * Opens SQLite connections configured for hotpath: WAL journal, the {@link Durability}'s
 * {@code synchronous} level, a busy timeout, foreign keys on. The one write connection belongs to a
 * {@link GroupCommitWriter} (or a {@link LoopCommitter}, whose loop also reads on it); read-only
 * connections are for readers on other threads.
 *
 * <p>Every connection a server opens here is for one thread at a time (opened with
 * {@code SQLITE_OPEN_NOMUTEX}): SQLite then skips the mutex it otherwise takes on every call, which a
 * connection that no two threads use at once never needs. Its owner (a writer thread, one event loop,
 * one reading thread) must keep it so; handing it from one thread to another with a happens-before
 * edge (a thread start, a lock) is fine.
 * In the social API's closed-loop mix this measured 0.989× the CPU per request (docs/BENCHMARKS.md).
 *
 * <p>Every connection has the driver's generated-key retrieval off: with it on, sqlite-jdbc follows
 * each {@code INSERT} with a regular-expression match on its SQL and a freshly prepared
 * {@code SELECT last_insert_rowid()}, which was a sixth of the shortener writer's CPU. Nothing here
 * reads generated keys (ids are assigned by the writer, or read back with {@code last_insert_rowid()}).
 *
 * <p>Every connection runs on the SQLite library {@link SqliteLibrary} chose, installed at the first open.
 */
public final class SqliteDatabase {
    /** {@code sqlite3_open_v2} flags, as the driver's {@code open_mode} property takes them. */
    private static final int SQLITE_OPEN_READONLY = 0x1;
    private static final int SQLITE_OPEN_READWRITE = 0x2;
    private static final int SQLITE_OPEN_CREATE = 0x4;
    private static final int SQLITE_OPEN_NOMUTEX = 0x8000;
    /** How long a connection waits on a lock held by another connection (checkpoints, readers). */
    static final int BUSY_TIMEOUT_MS = 5_000;

    private SqliteDatabase() {
    }

    /**
     * The write connection, in manual-commit mode. Under {@link Durability#NONE} it is a private
     * in-memory database and {@code file} is not touched: the same SQL runs, nothing reaches a disk, and
     * everything is gone when the connection closes.
     */
    public static Connection openForWriting(Path file, Durability durability) throws SQLException {
        SqliteLibrary.install();
        if (!durability.persistent()) {
            Connection db = DriverManager.getConnection("jdbc:sqlite::memory:", properties());
            try (Statement s = db.createStatement()) {
                s.execute("PRAGMA foreign_keys=ON");
            }
            db.setAutoCommit(false);
            return db;
        }
        Properties properties = properties();
        properties.setProperty("open_mode", Integer.toString(SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX));
        Connection db = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath(), properties);
        try (Statement s = db.createStatement()) {
            s.execute("PRAGMA journal_mode=WAL");
            s.execute("PRAGMA synchronous=" + durability.name());
            s.execute("PRAGMA busy_timeout=" + BUSY_TIMEOUT_MS);
            s.execute("PRAGMA foreign_keys=ON");
            db.setAutoCommit(false);
            return db;
        } catch (SQLException | RuntimeException e) {
            closeAfter(e, db); // a file that is not a database fails here, and must not stay open
            throw e;
        }
    }

    /** A read-only connection on a database a writer created. */
    public static Connection openForReading(Path file) throws SQLException {
        SqliteLibrary.install();
        Properties properties = properties();
        properties.setProperty("open_mode", Integer.toString(SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX));
        Connection db = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath(), properties);
        try (Statement s = db.createStatement()) {
            s.execute("PRAGMA busy_timeout=" + BUSY_TIMEOUT_MS);
            return db;
        } catch (SQLException | RuntimeException e) {
            closeAfter(e, db);
            throw e;
        }
    }

    /**
     * A plain connection (auto-commit, no pragmas set, the driver's own locking, so any thread may use
     * it): for writing a seed and for tools and tests that look into a file. The servers' connections
     * come from {@link #openForWriting} and {@link #openForReading}.
     */
    public static Connection open(Path file) throws SQLException {
        SqliteLibrary.install();
        return DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath(), properties());
    }

    /**
     * Attaches the database in {@code file} to {@code db} as the schema {@code name}, so that its tables
     * are {@code name.table} on that connection. {@code name} is the caller's constant, never input (a
     * schema name cannot be a parameter). SQLite refuses to attach inside a transaction: {@code db} must
     * be in auto-commit mode.
     */
    public static void attach(Connection db, Path file, String name) throws SQLException {
        try (PreparedStatement attach = db.prepareStatement("ATTACH DATABASE ? AS " + name)) {
            attach.setString(1, file.toAbsolutePath().toString());
            attach.execute();
        }
    }

    /**
     * Closes {@code resources} (a connection, its statements; nulls skipped) in order after
     * {@code failure} made them useless, before the caller rethrows the failure: a close that fails too
     * is kept on it as suppressed, so the first cause is the one reported, and the rest still close.
     */
    public static void closeAfter(Exception failure, AutoCloseable... resources) {
        for (AutoCloseable resource : resources) {
            if (resource != null) {
                try {
                    resource.close();
                } catch (Exception suppressed) {
                    failure.addSuppressed(suppressed);
                }
            }
        }
    }

    private static Properties properties() {
        Properties properties = new Properties();
        properties.setProperty("jdbc.get_generated_keys", "false");
        return properties;
    }
}
