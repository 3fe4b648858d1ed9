package dev.hotpath.apps.users.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.apps.internal.WrittenAnswer;
import dev.hotpath.http.Deferred;
import dev.hotpath.http.LateAnswer;
import dev.hotpath.http.Response;
import dev.hotpath.store.Durability;
import dev.hotpath.store.SqliteDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SQLite store's reads, held to what reading each row through JDBC and the generator gives. */
class SqliteUsersTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-07T11:00:00Z"), ZoneOffset.UTC);
    private static final long FIRST_ADDED = UserStore.PRELOADED + 1;
    private static final int ADDED = 300;

    @TempDir
    Path dir;

    /**
     * Rows of any text, among them bytes that are not UTF-8, as another tool could write them into the
     * file: a read and a page answer each row exactly as JDBC's strings written by the generator would.
     */
    @Test
    void answersEveryRowAsJdbcAndTheGeneratorWouldWhateverItsBytes() throws SQLException {
        new SqliteUsers(dir, CLOCK).close(); // creates the file and preloads it
        Path file = dir.resolve("users.db");
        byte[] pieces = HexFormat.of().parseHex("41225c0a7f80bfc0c2a9e0eda0f09f9a80f5");
        SplittableRandom random = new SplittableRandom(11);
        try (Connection db = SqliteDatabase.openForWriting(file, Durability.FULL);
             PreparedStatement insert = db.prepareStatement("INSERT INTO users VALUES (?, CAST(? AS TEXT), CAST(? AS TEXT), ?)")) {
            for (long id = FIRST_ADDED; id < FIRST_ADDED + ADDED; id++) {
                insert.setLong(1, id);
                insert.setBytes(2, id % 3 == 0 ? randomBytes(random, pieces) : UserRowJsonTest.randomText(random).getBytes(StandardCharsets.UTF_8));
                insert.setBytes(3, UserRowJsonTest.randomText(random).getBytes(StandardCharsets.UTF_8));
                insert.setString(4, UserRowJsonTest.randomText(random));
                insert.executeUpdate();
            }
            db.commit();
        }
        TreeMap<Long, String> expected = new TreeMap<>();
        try (Connection db = SqliteDatabase.openForReading(file);
             ResultSet rows = db.createStatement().executeQuery("SELECT id, name, email, created_at FROM users WHERE id >= 9990")) {
            while (rows.next()) {
                expected.put(rows.getLong(1), new String(GeneratedUser.json(rows.getLong(1), rows.getString(2), rows.getString(3),
                    rows.getString(4)), StandardCharsets.UTF_8));
            }
        }
        assertThat(expected).hasSize(11 + ADDED);
        try (SqliteUsers users = new SqliteUsers(dir, CLOCK)) {
            for (long id = 9990; id <= FIRST_ADDED + ADDED; id++) {
                WrittenAnswer found = new WrittenAnswer();
                assertThat(users.find(id, found)).as("user %d found", id).isEqualTo(expected.containsKey(id));
                if (expected.containsKey(id)) {
                    assertThat(found.streamed(200)).as("user %d", id).isEqualTo(expected.get(id));
                }
            }
            for (long after = 9990; after <= FIRST_ADDED + ADDED; after += 37) {
                WrittenAnswer page = new WrittenAnswer();
                users.page(after, 100, page);
                var users100 = expected.tailMap(after, false).entrySet().stream().limit(100).toList();
                String next = users100.size() == 100 ? users100.getLast().getKey().toString() : "null";
                assertThat(page.streamed(200)).as("after %d", after).isEqualTo(
                    users100.stream().map(e -> e.getValue()).collect(Collectors.joining(",", "{\"users\":[", "],\"next\":" + next + "}")));
            }
        }
    }

    /**
     * Creates of any text, each inserted from its request's bytes: its {@code 201} is what the
     * generator writes for the same strings, and a read after the commit answers exactly its body. Each
     * answer is written on this thread, where its create was made, as a loop writes its own: every
     * create after the first reuses the first one's object and arrays, fields longer and shorter than
     * the last, and leaves nothing of the user before in its row or its answer.
     */
    @Test
    void answersEachCreateAsTheGeneratorWouldAndReadsItBackAlike() throws Exception {
        SplittableRandom random = new SplittableRandom(12);
        try (SqliteUsers users = new SqliteUsers(dir, CLOCK)) {
            LateAnswer first = null;
            for (long id = FIRST_ADDED; id < FIRST_ADDED + ADDED; id++) {
                String name = UserRowJsonTest.randomText(random);
                String email = UserRowJsonTest.randomText(random) + "@" + UserRowJsonTest.randomText(random);
                HeldAnswer answer = new HeldAnswer();
                users.create(NewUsers.of(name, email), answer);
                LateAnswer late = (LateAnswer) answer.completed.get(20, TimeUnit.SECONDS);
                WrittenAnswer created = new WrittenAnswer();
                late.answer(created);
                if (first == null) {
                    first = late;
                } else {
                    assertThat(late).as("create %d reuses the first one's", id).isSameAs(first);
                }
                String expected = new String(GeneratedUser.json(id, name, email, "2026-12-07T11:00:00Z"), StandardCharsets.UTF_8);
                assertThat(created.streamed(201)).as("user %d's 201", id).isEqualTo(expected);
                WrittenAnswer found = new WrittenAnswer();
                assertThat(users.find(id, found)).isTrue();
                assertThat(found.streamed(200)).as("user %d read back", id).isEqualTo(expected);
            }
        }
    }

    /** A slot that keeps what completed it, for the test to write a late answer on its own thread. */
    private static final class HeldAnswer implements Deferred {
        final CompletableFuture<Object> completed = new CompletableFuture<>();

        @Override
        public void complete(Response response) {
            completed.complete(response);
        }

        @Override
        public void completeOnLoop(LateAnswer answer) {
            completed.complete(answer);
        }
    }

    private static byte[] randomBytes(SplittableRandom random, byte[] pieces) {
        byte[] bytes = new byte[random.nextInt(1, 12)];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = pieces[random.nextInt(pieces.length)];
        }
        return bytes;
    }
}
