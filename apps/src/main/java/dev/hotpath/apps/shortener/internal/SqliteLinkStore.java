package dev.hotpath.apps.shortener.internal;

import dev.hotpath.http.Deferred;
import dev.hotpath.store.DataDirLock;
import dev.hotpath.store.Durability;
import dev.hotpath.store.GroupCommitConfig;
import dev.hotpath.store.GroupCommitWriter;
import dev.hotpath.store.SqliteDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The shortener's links in SQLite: the {@code links} table in {@code <data>/links.db} (WAL), the data
 * directory's lock, and the {@link GroupCommitWriter} that alone writes to it. Opening loads and
 * verifies every link ({@link SqliteLinkLoader}); under {@link Durability#NONE} the database is in
 * memory and starts empty.
 *
 * <p>The {@code meta} table records the code secret and the code scheme the directory was created
 * with; a start with the other scheme is refused, since every code would change.
 */
public final class SqliteLinkStore implements LinkStore {
    private static final System.Logger LOG = System.getLogger(SqliteLinkStore.class.getName());
    static final String DATABASE = "links.db";
    /** Writes waiting at most: above it creates answer 503 rather than wait. */
    private static final int QUEUE_CAPACITY = 64 * 1024;
    private static final int SECRET_BYTES = 32;
    private static final String SCHEMA = """
        CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
        CREATE TABLE IF NOT EXISTS links (
          id INTEGER PRIMARY KEY,
          name TEXT UNIQUE,
          long_url TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          expires_at INTEGER,
          protected INTEGER NOT NULL DEFAULT 0,
          deleted_at INTEGER,
          visits INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE IF NOT EXISTS visit_log (seq INTEGER PRIMARY KEY, counts BLOB NOT NULL);
        """;

    private final LinkTable table;
    private final byte[] secret;
    private final DataDirLock lock;
    private final SqliteLinkWrites writes;
    private final GroupCommitWriter writer;
    private final Durability durability;

    private SqliteLinkStore(LinkTable table, byte[] secret, DataDirLock lock, Connection db, Durability durability,
                            int maxBatch) {
        this.durability = durability;
        this.table = table;
        this.secret = secret;
        this.lock = lock;
        this.writes = new SqliteLinkWrites(table);
        this.writer = new GroupCommitWriter(db, GroupCommitConfig.named("shortener-writer")
            .withQueueCapacity(QUEUE_CAPACITY).withMaxBatch(maxBatch)
            .withAcknowledgements(Deferred::completeTogether).withListener(writes));
    }

    /** Everything the store needs to open; see {@code ShortenerConfig}. */
    public record Settings(Path dataDir, Durability durability, String codesMode, int maxLinks, int maxBatch) {
    }

    /**
     * Locks the data directory, creates or opens the database, loads and verifies every link.
     *
     * @throws IllegalStateException with the reason the store cannot be served
     */
    public static SqliteLinkStore open(Settings settings) {
        DataDirLock lock = DataDirLock.acquire(settings.dataDir());
        Connection db = null;
        try {
            LinkTable table = new LinkTable(settings.maxLinks());
            db = SqliteDatabase.openForWriting(settings.dataDir().resolve(DATABASE), settings.durability());
            try (Statement s = db.createStatement()) {
                for (String statement : SCHEMA.split(";")) {
                    if (!statement.isBlank()) {
                        s.executeUpdate(statement);
                    }
                }
            }
            byte[] secret = meta(db, "code_secret");
            if (secret == null) {
                secret = new byte[SECRET_BYTES];
                new SecureRandom().nextBytes(secret);
                putMeta(db, "code_secret", secret);
                putMeta(db, "codes", settings.codesMode().getBytes(StandardCharsets.US_ASCII));
            }
            String codes = new String(meta(db, "codes"), StandardCharsets.US_ASCII);
            if (!codes.equals(settings.codesMode())) {
                throw new IllegalStateException("the data dir was created with --codes " + codes
                    + "; its links would get other codes under --codes " + settings.codesMode());
            }
            db.commit();
            SqliteLinkLoader.load(db, table, settings.maxLinks());
            SqliteLinkLoader.replayVisits(db, table);
            return new SqliteLinkStore(table, secret, lock, db, settings.durability(), settings.maxBatch());
        } catch (SQLException e) {
            release(db, lock);
            throw new IllegalStateException("cannot open the store in " + settings.dataDir() + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            release(db, lock);
            throw e;
        }
    }

    /**
     * The code scheme {@code dataDir}'s store was created with, read without opening the store.
     *
     * @throws IllegalStateException when the directory holds no shortener store
     */
    public static String storedCodes(Path dataDir) {
        Path file = dataDir.resolve(DATABASE);
        if (!java.nio.file.Files.exists(file)) {
            throw new IllegalStateException(dataDir + " holds no shortener store (no " + DATABASE + ")");
        }
        try (Connection db = SqliteDatabase.openForReading(file)) {
            byte[] codes = meta(db, "codes");
            if (codes == null) {
                throw new IllegalStateException(file + " records no code scheme");
            }
            return new String(codes, StandardCharsets.US_ASCII);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** The database file of {@code dataDir}'s store. */
    static Path databaseOf(Path dataDir) {
        return dataDir.resolve(DATABASE);
    }

    /** After a refused open: the connection (its read transaction would hold back checkpoints), then the lock. */
    private static void release(Connection db, DataDirLock lock) {
        try {
            if (db != null) {
                db.close();
            }
        } catch (SQLException e) {
            LOG.log(System.Logger.Level.WARNING, "closing the refused store's connection failed", e);
        } finally {
            lock.close();
        }
    }

    @Override
    public LinkTable table() {
        return table;
    }

    @Override
    public byte[] codeSecret() {
        return secret.clone();
    }

    @Override
    public boolean create(List<NewLink> links, Outcome<int[]> outcome) {
        return writer.offer(writes.insert(links, outcome));
    }

    @Override
    public boolean delete(int id, long deletedAt, Outcome<Boolean> outcome) {
        return writer.offer(writes.delete(id, deletedAt, outcome));
    }

    @Override
    public void flushVisits() {
        if (durability.persistent()) {
            writer.offer(writes.appendVisits());
        } else {
            table.drainChangedVisits((id, visits) -> { }); // nothing outlives the process: keep no log
        }
    }

    @Override
    public GroupCommitWriter.Stats writerStats() {
        return writer.stats();
    }

    /** Drains the writer (every queued write commits), then releases the data directory. */
    @Override
    public void close() {
        writer.close();
        lock.close();
    }

    private static byte[] meta(Connection db, String key) throws SQLException {
        try (PreparedStatement s = db.prepareStatement("SELECT value FROM meta WHERE key = ?")) {
            s.setString(1, key);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getBytes(1) : null;
            }
        }
    }

    private static void putMeta(Connection db, String key, byte[] value) throws SQLException {
        try (PreparedStatement s = db.prepareStatement("INSERT INTO meta (key, value) VALUES (?, ?)")) {
            s.setString(1, key);
            s.setBytes(2, value);
            s.executeUpdate();
        }
    }
}
