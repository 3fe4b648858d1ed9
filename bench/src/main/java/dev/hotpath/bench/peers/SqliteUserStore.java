package dev.hotpath.bench.peers;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.hotpath.store.Durability;
import dev.hotpath.store.SqliteDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * Users in SQLite (scenario S4), the way a Java user writes it with plain JDBC: reads borrow a
 * connection from a HikariCP pool of read-only connections, creates take the one write connection in
 * turn and commit each insert on its own. The file is {@code users.db} in the data directory, in WAL
 * mode with {@code synchronous=FULL}: every commit is fsynced, so a create that returned is on disk,
 * the durability hotpath gives a {@code 201}. The store preloads {@link User#PRELOADED} users when the
 * table is empty and otherwise continues the ids where the file left them.
 *
 * <p>Cost: one fsync per create, and creates are serial (SQLite has one writer); hotpath's
 * group-commit writer shares an fsync between the creates that arrive together, which is the
 * difference S4 measures. Reads run in parallel, up to {@link #READ_CONNECTIONS} at a time.
 */
final class SqliteUserStore implements UserStore {
    /** The file in the data directory. */
    static final String FILE = "users.db";

    /** Read connections in the pool: HikariCP's own default, as a user who does not tune it gets. */
    static final int READ_CONNECTIONS = 10;

    /** How long a read waits on the write lock (a checkpoint) before failing. */
    static final int BUSY_TIMEOUT_MS = 5_000;

    private static final String SCHEMA = """
        CREATE TABLE IF NOT EXISTS users (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL,
          email TEXT NOT NULL,
          created_at TEXT NOT NULL
        )""";
    private static final String INSERT = "INSERT INTO users (id, name, email, created_at) VALUES (?, ?, ?, ?)";
    private static final String FIND = "SELECT name, email, created_at FROM users WHERE id = ?";
    private static final String PAGE = "SELECT id, name, email, created_at FROM users WHERE id > ? ORDER BY id LIMIT ?";

    private final Connection writer;
    private final PreparedStatement insert;
    private final HikariDataSource readers;
    private long nextId;

    private SqliteUserStore(Connection writer, HikariDataSource readers, long nextId) throws SQLException {
        this.writer = writer;
        this.insert = writer.prepareStatement(INSERT);
        this.readers = readers;
        this.nextId = nextId;
    }

    /** Opens (creating when needed) {@code dir/users.db}, preloading the users into an empty table. */
    static SqliteUserStore open(Path dir) {
        Path file = dir.resolve(FILE);
        try {
            Files.createDirectories(dir);
            Connection writer = SqliteDatabase.openForWriting(file, Durability.FULL);
            try {
                long nextId = prepare(writer);
                return new SqliteUserStore(writer, readPool(file), nextId);
            } catch (SQLException | RuntimeException e) {
                writer.close();
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot open " + file + ": " + e.getMessage(), e);
        }
    }

    /** Creates the table, preloads it when empty, and returns the next id. */
    private static long prepare(Connection writer) throws SQLException {
        long last;
        try (Statement s = writer.createStatement()) {
            s.execute(SCHEMA);
            try (ResultSet max = s.executeQuery("SELECT COALESCE(MAX(id), 0) FROM users")) {
                max.next();
                last = max.getLong(1);
            }
        }
        if (last == 0) {
            try (PreparedStatement insert = writer.prepareStatement(INSERT)) {
                for (long id = 1; id <= User.PRELOADED; id++) {
                    bind(insert, User.preloaded(id));
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            last = User.PRELOADED;
        }
        writer.commit();
        return last + 1;
    }

    private static HikariDataSource readPool(Path file) {
        SQLiteConfig sqlite = new SQLiteConfig();
        sqlite.setReadOnly(true);
        sqlite.setBusyTimeout(BUSY_TIMEOUT_MS);
        SQLiteDataSource source = new SQLiteDataSource(sqlite);
        source.setUrl("jdbc:sqlite:" + file.toAbsolutePath());
        HikariConfig pool = new HikariConfig();
        pool.setPoolName("users-readers");
        pool.setDataSource(source);
        pool.setReadOnly(true); // as the connections are opened: SQLite cannot change it after
        pool.setMaximumPoolSize(READ_CONNECTIONS);
        return new HikariDataSource(pool);
    }

    @Override
    public User find(long id) {
        try (Connection db = readers.getConnection(); PreparedStatement find = db.prepareStatement(FIND)) {
            find.setLong(1, id);
            try (ResultSet row = find.executeQuery()) {
                return row.next() ? new User(id, row.getString(1), row.getString(2), row.getString(3)) : null;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("reading user " + id + ": " + e.getMessage(), e);
        }
    }

    @Override
    public List<User> page(long after, int limit) {
        try (Connection db = readers.getConnection(); PreparedStatement page = db.prepareStatement(PAGE)) {
            page.setLong(1, after);
            page.setInt(2, limit);
            List<User> users = new ArrayList<>(limit);
            try (ResultSet row = page.executeQuery()) {
                while (row.next()) {
                    users.add(new User(row.getLong(1), row.getString(2), row.getString(3), row.getString(4)));
                }
            }
            return users;
        } catch (SQLException e) {
            throw new IllegalStateException("reading users after " + after + ": " + e.getMessage(), e);
        }
    }

    /**
     * Inserts and commits under the store's lock. {@code synchronized} is fine on virtual threads:
     * since JDK 24 (JEP 491) a virtual thread waiting for it or blocking inside it leaves its carrier.
     */
    @Override
    public synchronized User create(String name, String email, String createdAt) {
        User user = new User(nextId, name, email, createdAt);
        try {
            bind(insert, user);
            insert.executeUpdate();
            writer.commit();
        } catch (SQLException e) {
            rollback(e);
            throw new IllegalStateException("creating a user: " + e.getMessage(), e);
        }
        nextId++;
        return user;
    }

    @Override
    public boolean blocking() {
        return true;
    }

    @Override
    public synchronized void close() {
        readers.close();
        try {
            insert.close();
            writer.close();
        } catch (SQLException e) {
            throw new IllegalStateException("closing " + FILE + ": " + e.getMessage(), e);
        }
    }

    private static void bind(PreparedStatement insert, User user) throws SQLException {
        insert.setLong(1, user.id());
        insert.setString(2, user.name());
        insert.setString(3, user.email());
        insert.setString(4, user.createdAt());
    }

    private void rollback(SQLException cause) {
        try {
            writer.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }
}
