package dev.hotpath.apps.shortener;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * API keys of the scale-out mode, in the {@code api_keys} table: the same keys as {@link ApiKeys}
 * (same form, SHA-256 hashes only, the secret shown once), shared by every node.
 *
 * <p>A node checks keys against the active hashes it holds in memory and re-reads the table with
 * {@link #refresh} (the shortener does so every few seconds), so a key created or revoked on any node
 * or with {@code hotpath keys --store} takes effect everywhere within that period. A failed refresh
 * keeps the hashes already held: an outage of the database does not lock everyone out.
 */
public final class PostgresApiKeys implements KeyVerifier {
    /** The advisory lock {@link #createFirst} holds: any constant that no other hotpath lock uses. */
    private static final long FIRST_KEY_LOCK = 0x6870_6b5f_6669_7273L;
    private final DataSource db;
    private volatile byte[][] activeHashes = new byte[0][];

    private PostgresApiKeys(DataSource db) {
        this.db = db;
    }

    /**
     * The keys of {@code db}, read now.
     *
     * @throws SQLException when the table cannot be read
     */
    public static PostgresApiKeys open(DataSource db) throws SQLException {
        PostgresApiKeys keys = new PostgresApiKeys(db);
        keys.refresh();
        return keys;
    }

    @Override
    public boolean verify(byte[] presented) {
        return ApiKeys.matchesAny(presented, activeHashes);
    }

    /** Re-reads the active hashes. */
    public void refresh() throws SQLException {
        activeHashes = ApiKeys.activeHashes(list(db));
    }

    /** Creates a key and stores its hash. */
    public static ApiKeys.Created create(DataSource db, Clock clock) throws SQLException {
        try (Connection c = db.getConnection()) {
            return insertNew(c, clock);
        }
    }

    /**
     * Creates a key if the table has none, or returns null: the first key of a new database. Nodes
     * starting together agree: the check and the insert run in one transaction under an advisory lock,
     * so exactly one of them creates it. {@code keep} (which writes the secret where the operator finds
     * it) runs before the commit: if it fails, the key is not stored, so no key exists whose secret
     * nobody has.
     */
    public static ApiKeys.Created createFirst(DataSource db, Clock clock, Consumer<ApiKeys.Created> keep)
        throws SQLException {
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.executeQuery("SELECT pg_advisory_xact_lock(" + FIRST_KEY_LOCK + ")").close();
                ApiKeys.Created created;
                try (ResultSet any = s.executeQuery("SELECT EXISTS (SELECT 1 FROM api_keys)")) {
                    any.next();
                    created = any.getBoolean(1) ? null : insertNew(c, clock);
                }
                if (created != null) {
                    keep.accept(created);
                }
                c.commit();
                return created;
            } finally {
                c.rollback(); // nothing after a commit; the lock and any half-done work before one
                c.setAutoCommit(true);
            }
        }
    }

    private static ApiKeys.Created insertNew(Connection c, Clock clock) throws SQLException {
        ApiKeys.Created created = ApiKeys.generate();
        try (PreparedStatement insert = c.prepareStatement(
            "INSERT INTO api_keys (id, hash, created_at) VALUES (?, ?, ?)")) {
            insert.setString(1, created.id());
            insert.setString(2, ApiKeys.hashHex(created.secret()));
            insert.setLong(3, clock.millis());
            insert.executeUpdate();
        }
        return created;
    }

    /** Revokes key {@code id}; false when there is no active key with that id. */
    public static boolean revoke(DataSource db, String id, Clock clock) throws SQLException {
        try (Connection c = db.getConnection();
             PreparedStatement update = c.prepareStatement(
                 "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL")) {
            update.setLong(1, clock.millis());
            update.setString(2, id);
            return update.executeUpdate() == 1;
        }
    }

    /** Every stored key, active or revoked, oldest first. */
    public static List<ApiKeys.KeyInfo> list(DataSource db) throws SQLException {
        try (Connection c = db.getConnection();
             PreparedStatement select = c.prepareStatement(
                 "SELECT id, hash, created_at, revoked_at FROM api_keys ORDER BY created_at, id");
             ResultSet rows = select.executeQuery()) {
            List<ApiKeys.KeyInfo> keys = new ArrayList<>();
            while (rows.next()) {
                long revokedMillis = rows.getLong(4);
                Instant revokedAt = rows.wasNull() ? null : Instant.ofEpochMilli(revokedMillis);
                keys.add(new ApiKeys.KeyInfo(rows.getString(1), rows.getString(2), Instant.ofEpochMilli(rows.getLong(3)),
                    revokedAt));
            }
            return keys;
        }
    }

    /**
     * Stores a key moved from an embedded data directory ({@code hotpath shortener import}), keeping
     * its id, hash and dates; on the import's own connection and transaction. A key already there
     * (an earlier import of the same directory) stays as it is.
     */
    public static void insert(Connection c, ApiKeys.KeyInfo key) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO api_keys (id, hash, created_at, revoked_at)"
            + " VALUES (?, ?, ?, ?) ON CONFLICT (id) DO NOTHING")) {
            insert.setString(1, key.id());
            insert.setString(2, key.hash());
            insert.setLong(3, key.createdAt().toEpochMilli());
            if (key.revokedAt() == null) {
                insert.setNull(4, Types.BIGINT);
            } else {
                insert.setLong(4, key.revokedAt().toEpochMilli());
            }
            insert.executeUpdate();
        }
    }
}
