package dev.hotpath.apps.shortener.internal;

import dev.hotpath.apps.shortener.ApiKeys;
import dev.hotpath.apps.shortener.ClusterShortenerApp;
import dev.hotpath.apps.shortener.PostgresApiKeys;
import dev.hotpath.apps.shortener.ShortenerConfig;
import dev.hotpath.store.Durability;
import dev.hotpath.store.Migrations;
import dev.hotpath.store.PostgresConfig;
import dev.hotpath.store.PostgresDatabase;
import dev.hotpath.store.SqliteDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;

/**
 * {@code hotpath shortener import}: moves an embedded store (a data directory) into an empty
 * scale-out database, so that every code keeps working: the links with their ids, names, dates and
 * visit counts, the code secret and scheme (a scrambled code is its id under that secret), and the
 * API keys (hashes). The sequence is moved past the last id, so new links never take an imported one.
 *
 * <p>The target must be new: created, at most migrated, never served by a node (see
 * {@link #refuseUnlessEmpty}). The data directory is opened as the embedded server opens it: locked (no server may run on it
 * meanwhile), verified, its visit log replayed. Everything goes into PostgreSQL in one transaction:
 * an import that fails leaves the database as it was.
 */
public final class ClusterImport {
    private static final int BATCH = 1000;
    private static final String INSERT = "INSERT INTO links (id, name, protected, long_url, created_at, expires_at,"
        + " deleted_at, visits) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";

    private ClusterImport() {
    }

    /**
     * Imports {@code dataDir} into {@code store}, migrating its schema first.
     *
     * @throws IllegalStateException when the directory cannot be opened, or the database already holds links
     */
    public static ClusterShortenerApp.Imported run(Path dataDir, PostgresConfig store) {
        String codes = SqliteLinkStore.storedCodes(dataDir);
        SqliteLinkStore embedded = SqliteLinkStore.open(new SqliteLinkStore.Settings(dataDir, Durability.FULL, codes,
            ShortenerConfig.MAX_LINKS, 1));
        try (embedded; PostgresDatabase database = new PostgresDatabase(store)) {
            Migrations.apply(database.reads(), "shortener", ClusterShortener.MIGRATIONS);
            List<ApiKeys.KeyInfo> keys = ApiKeys.list(dataDir);
            try (Connection target = database.openWriter();
                 Connection source = SqliteDatabase.openForReading(SqliteLinkStore.databaseOf(dataDir))) {
                refuseUnlessEmpty(target);
                replaceMeta(target, embedded.codeSecret(), codes);
                int links = copyLinks(source, target, embedded.table());
                for (ApiKeys.KeyInfo key : keys) {
                    PostgresApiKeys.insert(target, key);
                }
                if (links > 0) {
                    try (PreparedStatement advance = target.prepareStatement("SELECT setval('link_ids', ?, true)")) {
                        advance.setLong(1, (links - 1L) / PostgresLinks.ID_BLOCK * PostgresLinks.ID_BLOCK);
                        advance.executeQuery().close();
                    }
                }
                target.commit();
                return new ClusterShortenerApp.Imported(links, keys.size());
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the import failed and stored nothing: " + e.getMessage(), e);
        }
    }

    /**
     * Refuses a database that any node has used: links, keys (every write node makes one at its first
     * start) or an id block taken. Nodes that ran hold the code secret in memory; replacing it under
     * them would give every code another meaning.
     */
    private static void refuseUnlessEmpty(Connection target) throws SQLException {
        try (Statement count = target.createStatement();
             ResultSet rows = count.executeQuery("SELECT EXISTS (SELECT 1 FROM links), EXISTS (SELECT 1 FROM api_keys),"
                 + " (SELECT is_called FROM link_ids)")) {
            rows.next();
            if (rows.getBoolean(1)) {
                throw new IllegalStateException("the database already holds links; import only into an empty one");
            }
            if (rows.getBoolean(2) || rows.getBoolean(3)) {
                throw new IllegalStateException("nodes have used this database (it has API keys or ids taken): stop"
                    + " them and import into a new database, before any node starts on it");
            }
        }
    }

    /** The directory's secret and scheme replace whatever an earlier migrate created: no link uses it yet. */
    private static void replaceMeta(Connection target, byte[] secret, String codes) throws SQLException {
        try (Statement clear = target.createStatement();
             PreparedStatement insert = target.prepareStatement(
                 "INSERT INTO meta (key, value) VALUES ('code_secret', ?), ('codes', ?)")) {
            clear.executeUpdate("DELETE FROM meta");
            insert.setBytes(1, secret);
            insert.setBytes(2, codes.getBytes(StandardCharsets.US_ASCII));
            insert.executeUpdate();
        }
    }

    /** Every row of the SQLite store, with the visit counts the loaded table holds (log replayed). */
    private static int copyLinks(Connection source, Connection target, LinkTable table) throws SQLException {
        int copied = 0;
        try (Statement select = source.createStatement();
             ResultSet rows = select.executeQuery("SELECT id, name, protected, long_url, created_at, expires_at,"
                 + " deleted_at FROM links ORDER BY id");
             PreparedStatement insert = target.prepareStatement(INSERT)) {
            while (rows.next()) {
                int id = rows.getInt(1);
                insert.setLong(1, id);
                insert.setString(2, rows.getString(2));
                insert.setBoolean(3, rows.getInt(3) != 0);
                insert.setString(4, rows.getString(4));
                insert.setLong(5, rows.getLong(5));
                setNullable(insert, 6, rows, 6);
                setNullable(insert, 7, rows, 7);
                insert.setLong(8, table.visits(id));
                insert.addBatch();
                if (++copied % BATCH == 0) {
                    insert.executeBatch();
                }
            }
            insert.executeBatch();
        }
        return copied;
    }

    private static void setNullable(PreparedStatement insert, int index, ResultSet rows, int column) throws SQLException {
        long value = rows.getLong(column);
        if (rows.wasNull()) {
            insert.setNull(index, Types.BIGINT);
        } else {
            insert.setLong(index, value);
        }
    }
}
