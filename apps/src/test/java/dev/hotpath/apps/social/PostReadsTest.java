package dev.hotpath.apps.social;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.hotpath.http.Response;
import dev.hotpath.store.SqliteDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reads answered byte for byte as the contract says, against expectations built from the test's own SQL. */
class PostReadsTest {
    private static final String TRICKY = "He said \"hi\" <b>&amp;</b> / café ✓ \\ done\n\ttab\u0001 bell\u007f 🚀";

    @TempDir
    Path dir;

    private Path file;
    private long trickyId;

    @BeforeEach
    void seed() throws Exception {
        file = dir.resolve("social.db");
        SocialSeed.generate(file, new SocialSeed.Size(50, 500), 3);
        try (Connection db = SqliteDatabase.open(file); Statement s = db.createStatement()) {
            s.executeUpdate("INSERT INTO posts (user_id, body, created_at) VALUES (7, '" + TRICKY.replace("'", "''")
                + "', '2026-01-01T00:00:00.000Z')");
            try (ResultSet rs = s.executeQuery("SELECT last_insert_rowid()")) {
                rs.next();
                trickyId = rs.getLong(1);
            }
            s.executeUpdate("INSERT INTO likes (user_id, post_id) VALUES (1, " + trickyId + "), (2, " + trickyId + ")");
        }
    }

    /** The expected post object, from a query of the test's own. */
    private static String expectedPost(Statement s, long id) throws Exception {
        try (ResultSet rs = s.executeQuery("SELECT p.id, p.body, p.created_at, u.username, "
            + "(SELECT count(*) FROM likes WHERE post_id = p.id) FROM posts p, users u WHERE u.id = p.user_id AND p.id = " + id)) {
            rs.next();
            return "{\"id\":" + rs.getLong(1) + ",\"body\":" + quote(rs.getString(2)) + ",\"created_at\":"
                + quote(rs.getString(3)) + ",\"author\":" + quote(rs.getString(4)) + ",\"like_count\":" + rs.getLong(5) + "}";
        }
    }

    /** JSON's escapes: the two-character forms where JSON has one, {@code \\u00xx} for other control characters. */
    private static String quote(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> out.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return out.append('"').toString();
    }

    @Test
    void answersTheFeedWithTheTwentyNewestPostsByteForByte() throws Exception {
        StringBuilder expected = new StringBuilder("{\"posts\":[");
        try (Connection db = SqliteDatabase.open(file); Statement s = db.createStatement()) {
            java.util.List<Long> ids = new java.util.ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT id FROM posts ORDER BY created_at DESC, id DESC LIMIT 20")) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
            for (int i = 0; i < ids.size(); i++) {
                expected.append(i == 0 ? "" : ",").append(expectedPost(s, ids.get(i)));
            }
            assertThat(ids).hasSize(20).startsWith(trickyId);
        }
        expected.append("]}");
        try (Connection readOnly = SqliteDatabase.openForReading(file); PostReads reads = new PostReads(readOnly)) {
            Response feed = reads.feed();
            assertThat(PostJsonTest.body(feed)).isEqualTo(expected.toString());
            reads.post(trickyId);
            assertThat(PostJsonTest.body(feed)).as("an answer keeps its bytes when the reads write their next one").isEqualTo(expected.toString());
        }
    }

    @Test
    void answersAPostWithItsLikeCountAndRoundTripsItsUtf8() throws Exception {
        String expected;
        try (Connection db = SqliteDatabase.open(file); Statement s = db.createStatement()) {
            expected = "{\"post\":" + expectedPost(s, trickyId) + "}";
        }
        try (Connection readOnly = SqliteDatabase.openForReading(file); PostReads reads = new PostReads(readOnly)) {
            String answer = PostJsonTest.body(reads.post(trickyId));
            assertThat(answer).isEqualTo(expected).contains("\"like_count\":2").contains("café ✓");
            try (JsonParser json = new JsonFactory().createParser(answer)) {
                String body = null;
                while (json.nextToken() != null) {
                    if (json.currentToken() == JsonToken.FIELD_NAME && json.currentName().equals("body")) {
                        json.nextToken();
                        body = json.getText();
                    }
                }
                assertThat(body).as("the body round-trips through a JSON parser").isEqualTo(TRICKY);
            }
            assertThat(reads.post(999_999)).isNull();
        }
    }
}
