package dev.hotpath.apps.social;

import dev.hotpath.store.SqliteDatabase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;

/**
 * {@code hotpath social seed}: a database of the challenge's shape, generated deterministically (the
 * same {@code seed} gives the same bytes of data): users named {@code <adjective>_<noun>_<id>} created
 * during 2024, posts spread uniformly over 2025 by random authors, bodies of 1 to 500 characters (a
 * few with non-ASCII text), and likes per post drawn from an exponential distribution (mean
 * {@value #MEAN_LIKES}) plus, for one post in {@value #POPULAR_EVERY}, several hundred: about four
 * likes per post, two million for the full size. Written with one transaction per table and no
 * fsync, then switched to WAL and analyzed.
 */
public final class SocialSeed {
    static final double MEAN_LIKES = 3.9;
    static final int POPULAR_EVERY = 1000;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
        .withZone(ZoneOffset.UTC);
    private static final long YEAR_2024 = Instant.parse("2024-01-01T00:00:00Z").toEpochMilli();
    private static final long YEAR_2025 = Instant.parse("2025-01-01T00:00:00Z").toEpochMilli();
    private static final long YEAR_2026 = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
    private static final String[] ADJECTIVES = {"brave", "calm", "clever", "eager", "fancy", "gentle", "happy", "jolly",
        "kind", "lively", "merry", "nimble", "proud", "quiet", "rapid", "silly", "swift", "witty", "zany", "bold"};
    private static final String[] NOUNS = {"otter", "falcon", "badger", "heron", "lynx", "panda", "raven", "tiger",
        "walrus", "yak", "koala", "moose", "newt", "orca", "puffin", "quail", "robin", "seal", "toad", "wolf"};
    private static final String[] WORDS = {"the", "a", "server", "fast", "query", "today", "we", "shipped", "coffee",
        "latency", "benchmark", "sqlite", "is", "and", "why", "love", "this", "feed", "again", "never", "always",
        "tiny", "cheap", "box", "dollars", "twelve", "users", "like", "post", "read", "write", "café", "naïve", "✓"};

    /** How big a seed is. */
    public record Size(int users, int posts) {
        public static final Size CHALLENGE = new Size(50_000, 500_000);

        public Size {
            if (users < 1 || posts < 0) {
                throw new IllegalArgumentException("--users must be at least 1 and --posts at least 0");
            }
        }
    }

    /** What was written. */
    public record Summary(int users, int posts, long likes) {
    }

    private SocialSeed() {
    }

    /**
     * Writes a new database at {@code file}.
     *
     * @throws IllegalArgumentException when {@code file} already exists (a seed never overwrites)
     */
    public static Summary generate(Path file, Size size, long seed) throws IOException, SQLException {
        if (Files.exists(file)) {
            throw new IllegalArgumentException(file + " exists; seed writes a new file only");
        }
        SplittableRandom random = new SplittableRandom(seed);
        try (Connection db = SqliteDatabase.open(file)) {
            try (Statement s = db.createStatement()) {
                s.execute("PRAGMA journal_mode=OFF");
                s.execute("PRAGMA synchronous=OFF");
                s.executeUpdate(SocialSchema.DDL);
            }
            db.setAutoCommit(false);
            insertUsers(db, size.users(), random);
            insertPosts(db, size, random);
            long likes = insertLikes(db, size, random);
            db.commit();
            db.setAutoCommit(true);
            try (Statement s = db.createStatement()) {
                s.execute("PRAGMA journal_mode=WAL");
                s.execute("ANALYZE");
            }
            return new Summary(size.users(), size.posts(), likes);
        }
    }

    private static void insertUsers(Connection db, int users, SplittableRandom random) throws SQLException {
        try (PreparedStatement insert = db.prepareStatement("INSERT INTO users (id, username, created_at) VALUES (?, ?, ?)")) {
            for (int id = 1; id <= users; id++) {
                insert.setInt(1, id);
                insert.setString(2, ADJECTIVES[random.nextInt(ADJECTIVES.length)] + "_"
                    + NOUNS[random.nextInt(NOUNS.length)] + "_" + id);
                insert.setString(3, TIME.format(Instant.ofEpochMilli(random.nextLong(YEAR_2024, YEAR_2025))));
                insert.addBatch();
                if (id % 10_000 == 0) {
                    insert.executeBatch();
                }
            }
            insert.executeBatch();
        }
    }

    private static void insertPosts(Connection db, Size size, SplittableRandom random) throws SQLException {
        try (PreparedStatement insert = db.prepareStatement(
            "INSERT INTO posts (id, user_id, body, created_at) VALUES (?, ?, ?, ?)")) {
            StringBuilder body = new StringBuilder(512);
            for (int id = 1; id <= size.posts(); id++) {
                insert.setInt(1, id);
                insert.setInt(2, 1 + random.nextInt(size.users()));
                insert.setString(3, body(body, random));
                insert.setString(4, TIME.format(Instant.ofEpochMilli(random.nextLong(YEAR_2025, YEAR_2026))));
                insert.addBatch();
                if (id % 10_000 == 0) {
                    insert.executeBatch();
                }
            }
            insert.executeBatch();
        }
    }

    /** Words up to a length drawn mostly short (tweets), sometimes up to the 500-character limit. */
    private static String body(StringBuilder out, SplittableRandom random) {
        out.setLength(0);
        int target = random.nextInt(10) == 0 ? 1 + random.nextInt(500) : 1 + random.nextInt(140);
        while (out.length() < target) {
            if (!out.isEmpty()) {
                out.append(' ');
            }
            out.append(WORDS[random.nextInt(WORDS.length)]);
        }
        out.setLength(Math.min(out.length(), target));
        String text = out.toString().strip();
        return text.isEmpty() ? WORDS[0] : text;
    }

    private static long insertLikes(Connection db, Size size, SplittableRandom random) throws SQLException {
        long total = 0;
        try (PreparedStatement insert = db.prepareStatement(
            "INSERT OR IGNORE INTO likes (user_id, post_id, created_at) VALUES (?, ?, ?)")) {
            for (int post = 1; post <= size.posts(); post++) {
                int count = (int) Math.floor(-MEAN_LIKES * Math.log(1 - random.nextDouble()));
                if (random.nextInt(POPULAR_EVERY) == 0) {
                    count += 200 + random.nextInt(600);
                }
                count = Math.min(count, size.users());
                for (int i = 0; i < count; i++) {
                    insert.setInt(1, 1 + random.nextInt(size.users()));
                    insert.setInt(2, post);
                    insert.setString(3, TIME.format(Instant.ofEpochMilli(random.nextLong(YEAR_2025, YEAR_2026))));
                    insert.addBatch();
                }
                if (post % 2_000 == 0) {
                    total += inserted(insert.executeBatch());
                }
            }
            total += inserted(insert.executeBatch());
        }
        return total;
    }

    /** Rows a batch inserted: a repeated (user, post) pair is ignored, so likes stay unique. */
    private static long inserted(int[] counts) {
        long n = 0;
        for (int c : counts) {
            n += Math.max(0, c);
        }
        return n;
    }
}
