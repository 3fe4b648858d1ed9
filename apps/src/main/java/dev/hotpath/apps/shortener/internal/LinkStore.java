package dev.hotpath.apps.shortener.internal;

import dev.hotpath.http.Deferred;
import dev.hotpath.store.DataDirLock;
import dev.hotpath.store.Durability;
import dev.hotpath.store.GroupCommitConfig;
import dev.hotpath.store.GroupCommitWriter;
import dev.hotpath.store.SqliteDatabase;
import dev.hotpath.store.TransactionListener;
import dev.hotpath.store.Write;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The shortener's durable store: the {@code links} table in {@code <data>/links.db} (SQLite, WAL), the
 * data directory's lock, and the {@link GroupCommitWriter} that alone writes to it. At start it loads
 * every link into the {@link LinkTable}, verifying as it goes (ids contiguous from 0, every URL in
 * normal form, times the answers can write, the count within capacity); a store that fails any check
 * refuses to start, naming the first problem, rather than serve part of itself.
 *
 * <p>Ids are handed out on the writer thread, in commit order, so they stay contiguous: an insert that
 * fails takes no id, and a batch rolled back whole gives its ids back ({@code TransactionListener}).
 */
final class LinkStore implements AutoCloseable {
    static final String DATABASE = "links.db";
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
    /** Visit-log rows (one per second of traffic) beyond which a start folds them into {@code links}. */
    private static final int FOLD_VISITS_AFTER = 3600;

    final LinkTable table;
    final byte[] secret;
    private final DataDirLock lock;
    private final GroupCommitWriter writer;
    private int nextId;
    private int batchStartId;

    private LinkStore(LinkTable table, byte[] secret, DataDirLock lock, Connection db, int maxBatch) {
        this.table = table;
        this.secret = secret;
        this.lock = lock;
        this.nextId = table.size();
        this.writer = new GroupCommitWriter(db, GroupCommitConfig.named("shortener-writer").withQueueCapacity(64 * 1024)
            .withMaxBatch(maxBatch).withAcknowledgements(Deferred::completeTogether).withListener(new TransactionListener() {
                @Override
                public void begun() {
                    batchStartId = nextId;
                }

                @Override
                public void rolledBack() {
                    nextId = batchStartId;
                }
            }));
    }

    /** Everything the store needs to open; see {@code ShortenerConfig}. */
    record Settings(Path dataDir, Durability durability, String codesMode, int maxLinks, int maxBatch) {
    }

    /**
     * Locks the data directory, creates or opens the database, loads and verifies every link.
     *
     * @throws IllegalStateException with the reason the store cannot be served
     */
    static LinkStore open(Settings settings) {
        DataDirLock lock = DataDirLock.acquire(settings.dataDir());
        try {
            LinkTable table = new LinkTable(settings.maxLinks());
            Connection db = SqliteDatabase.openForWriting(settings.dataDir().resolve(DATABASE), settings.durability());
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
                putMeta(db, "codes", settings.codesMode().getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            }
            String codes = new String(meta(db, "codes"), java.nio.charset.StandardCharsets.US_ASCII);
            if (!codes.equals(settings.codesMode())) {
                throw new IllegalStateException("the data dir was created with --codes " + codes
                    + "; its links would get other codes under --codes " + settings.codesMode());
            }
            db.commit();
            load(db, table, settings);
            replayVisits(db, table);
            return new LinkStore(table, secret, lock, db, settings.maxBatch());
        } catch (SQLException e) {
            lock.close();
            throw new IllegalStateException("cannot open the store in " + settings.dataDir() + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            lock.close();
            throw e;
        }
    }

    private static void load(Connection db, LinkTable table, Settings settings) throws SQLException {
        try (Statement s = db.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, name, long_url, created_at, expires_at, protected, deleted_at,"
                 + " visits FROM links ORDER BY id")) {
            int expected = 0;
            while (rs.next()) {
                int id = rs.getInt(1);
                if (id != expected) {
                    throw new IllegalStateException("corrupt store: link ids are not contiguous (found " + id
                        + " where " + expected + " was expected)");
                }
                if (id >= settings.maxLinks()) {
                    throw new IllegalStateException("the store holds more links than --max-links " + settings.maxLinks());
                }
                String url = rs.getString(3);
                String normal;
                try {
                    normal = UrlNormalizer.normalize(url);
                } catch (IllegalArgumentException e) {
                    normal = null;
                }
                if (!url.equals(normal)) {
                    throw new IllegalStateException("corrupt store: link " + id + " has an invalid url");
                }
                long created = rs.getLong(4);
                long expires = rs.getLong(5);
                boolean noExpiry = rs.wasNull();
                if (!LinkJson.writable(created) || !noExpiry && !LinkJson.writable(expires)) {
                    throw new IllegalStateException("corrupt store: link " + id
                        + " has a creation or expiry time outside 1970 to 9999");
                }
                rs.getLong(7);
                boolean live = rs.wasNull();
                table.publish(id, url, created, rs.getString(2),
                    rs.getInt(6) != 0, noExpiry ? -1 : expires, rs.getLong(8), !live);
                expected++;
            }
        }
    }

    /**
     * Applies the visit log (absolute counts per link, in order, so replaying is idempotent); when it
     * has grown past {@link #FOLD_VISITS_AFTER} rows, folds the counts into {@code links} and empties it.
     */
    private static void replayVisits(Connection db, LinkTable table) throws SQLException {
        int rows = 0;
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT counts FROM visit_log ORDER BY seq")) {
            while (rs.next()) {
                rows++;
                java.nio.ByteBuffer counts = java.nio.ByteBuffer.wrap(rs.getBytes(1));
                while (counts.remaining() >= 12) {
                    int id = counts.getInt();
                    long visits = counts.getLong();
                    if (id >= 0 && id < table.size()) {
                        table.restoreVisits(id, visits);
                    }
                }
            }
        }
        if (rows > FOLD_VISITS_AFTER) {
            try (PreparedStatement update = db.prepareStatement("UPDATE links SET visits = ? WHERE id = ?")) {
                for (int id = 0; id < table.size(); id++) {
                    long visits = table.visits(id);
                    if (visits > 0) {
                        update.setLong(1, visits);
                        update.setInt(2, id);
                        update.addBatch();
                    }
                }
                update.executeBatch();
            }
            try (Statement s = db.createStatement()) {
                s.executeUpdate("DELETE FROM visit_log");
            }
            db.commit();
        }
    }

    /** Queues a write; false when the writer's queue is full. */
    boolean offer(Write write) {
        return writer.offer(write);
    }

    GroupCommitWriter.Stats writerStats() {
        return writer.stats();
    }

    /** Writer thread: the id the next successful insert takes. */
    int takeId() {
        return nextId;
    }

    /** Writer thread: the insert with {@link #takeId()} succeeded. */
    void idTaken() {
        nextId++;
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
