package dev.hotpath.apps.shortener.internal;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The code scheme every node of one scale-out database shares, from its {@code meta} table: the
 * secret scrambled codes derive from and the scheme's name, created once by the first write node (an
 * {@code INSERT ... ON CONFLICT DO NOTHING}, so two first starts agree on one secret). A node started
 * with the other {@code --codes} is refused, since every code would change.
 */
final class ClusterMeta {
    private static final int SECRET_BYTES = 32;

    private ClusterMeta() {
    }

    /**
     * The scheme of {@code db} (whose schema is current: every caller migrated or checked it first),
     * created first when {@code create} and there is none.
     *
     * @throws IllegalStateException when the database has none and may not create one, or has the other scheme
     */
    static CodeScheme codeScheme(DataSource db, String codesMode, boolean create) throws SQLException {
        try (Connection c = db.getConnection()) {
            if (create) {
                byte[] secret = new byte[SECRET_BYTES];
                new SecureRandom().nextBytes(secret);
                try (PreparedStatement insert = c.prepareStatement(
                    "INSERT INTO meta (key, value) VALUES ('code_secret', ?), ('codes', ?) ON CONFLICT DO NOTHING")) {
                    insert.setBytes(1, secret);
                    insert.setBytes(2, codesMode.getBytes(StandardCharsets.US_ASCII));
                    insert.executeUpdate();
                }
            }
            byte[] secret = read(c, "code_secret");
            byte[] codes = read(c, "codes");
            if (secret == null || codes == null) {
                throw new IllegalStateException("the database holds no code secret yet: start a write node first,"
                    + " or run hotpath shortener migrate");
            }
            String stored = new String(codes, StandardCharsets.US_ASCII);
            if (!stored.equals(codesMode)) {
                throw new IllegalStateException("the database was created with --codes " + stored
                    + "; its links would get other codes under --codes " + codesMode);
            }
            return stored.equals("scrambled") ? new ScrambledCodes(secret) : new SequentialCodes();
        }
    }

    private static byte[] read(Connection c, String key) throws SQLException {
        try (PreparedStatement select = c.prepareStatement("SELECT value FROM meta WHERE key = ?")) {
            select.setString(1, key);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? rows.getBytes(1) : null;
            }
        }
    }
}
