package dev.hotpath.apps.social;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hotpath.store.SqliteDatabase;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SocialSeedTest {
    private static final SocialSeed.Size SMALL = new SocialSeed.Size(300, 3_000);

    @TempDir
    Path dir;

    private static long count(Connection db, String sql) throws Exception {
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String digest(Path file) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        try (Connection db = SqliteDatabase.open(file); Statement s = db.createStatement()) {
            for (String query : new String[] {"SELECT * FROM users ORDER BY id", "SELECT * FROM posts ORDER BY id",
                "SELECT * FROM likes ORDER BY user_id, post_id"}) {
                try (ResultSet rs = s.executeQuery(query)) {
                    int columns = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        for (int c = 1; c <= columns; c++) {
                            sha.update(String.valueOf(rs.getString(c)).getBytes(java.nio.charset.StandardCharsets.UTF_8));
                            sha.update((byte) 0);
                        }
                    }
                }
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    @Test
    void writesTheContractsSchemaAndTheChallengesShape() throws Exception {
        Path file = dir.resolve("social.db");
        SocialSeed.Summary summary = SocialSeed.generate(file, SMALL, 7);
        try (Connection db = SqliteDatabase.open(file)) {
            assertThat(count(db, "SELECT count(*) FROM users")).isEqualTo(300);
            assertThat(count(db, "SELECT count(*) FROM posts")).isEqualTo(3_000);
            assertThat(count(db, "SELECT count(*) FROM likes")).isEqualTo(summary.likes()).isBetween(9_000L, 16_000L);
            assertThat(count(db, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name IN "
                + "('posts_created_at_id_idx', 'posts_user_id_idx', 'likes_post_id_idx')")).isEqualTo(3);
            assertThat(count(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")).isEqualTo(3);
            assertThat(count(db, "SELECT count(*) FROM users WHERE username NOT GLOB '[a-z]*_[a-z]*_[0-9]*' "
                + "OR substr(username, length(username) - length(id) + 1) != CAST(id AS TEXT)")).isZero();
            assertThat(count(db, "SELECT count(*) FROM posts WHERE created_at NOT GLOB "
                + "'2025-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9].[0-9][0-9][0-9]Z'")).isZero();
            assertThat(count(db, "SELECT count(*) FROM posts WHERE length(body) NOT BETWEEN 1 AND 500 OR body != trim(body)")).isZero();
            assertThat(count(db, "SELECT count(*) FROM posts WHERE body GLOB '*[^ -~]*'")).as("non-ASCII bodies").isPositive();
            assertThat(count(db, "SELECT count(*) FROM likes l LEFT JOIN users u ON u.id = l.user_id "
                + "LEFT JOIN posts p ON p.id = l.post_id WHERE u.id IS NULL OR p.id IS NULL")).isZero();
            assertThat(count(db, "SELECT max(c) FROM (SELECT count(*) c FROM likes GROUP BY post_id)")).as("popular posts").isGreaterThan(150);
            assertThat(count(db, "SELECT count(*) FROM sqlite_stat1")).as("analyzed").isPositive();
            try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("PRAGMA journal_mode")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("wal");
            }
        }
    }

    @Test
    void theSameSeedGivesTheSameDataAndAnotherSeedOther() throws Exception {
        SocialSeed.generate(dir.resolve("a.db"), SMALL, 7);
        SocialSeed.generate(dir.resolve("b.db"), SMALL, 7);
        SocialSeed.generate(dir.resolve("c.db"), SMALL, 8);
        assertThat(digest(dir.resolve("a.db"))).isEqualTo(digest(dir.resolve("b.db"))).isNotEqualTo(digest(dir.resolve("c.db")));
    }

    @Test
    void neverOverwritesAFile() throws Exception {
        Path file = dir.resolve("social.db");
        SocialSeed.generate(file, new SocialSeed.Size(5, 5), 1);
        assertThatThrownBy(() -> SocialSeed.generate(file, SMALL, 1)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("exists");
    }
}
