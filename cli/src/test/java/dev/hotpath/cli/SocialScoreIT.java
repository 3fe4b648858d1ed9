package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.hotpath.apps.social.SocialSeed;
import dev.hotpath.apps.social.Tokens;
import dev.hotpath.store.SqliteDatabase;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hotpath bench social --score} against {@code hotpath serve social} as a process, on a small
 * seed and with every hold shrunk to seconds: the search's runs in order, levels above
 * {@code --max-connections} time-scaled and saying so, a capped search scored as "at least", the
 * memory probe, and the files.
 */
class SocialScoreIT {
    private static final String SECRET = "twelve-dollar-challenge";
    private static final int TOKENS = 30;

    @TempDir
    Path dir;

    @Test
    void searchesHoldsAndScoresTheWriteHeavyMix() throws Exception {
        Path db = dir.resolve("social.db");
        SocialSeed.generate(db, new SocialSeed.Size(100, 200), 9);
        Path tokens = dir.resolve("tokens.txt");
        long now = Instant.now().getEpochSecond();
        List<String> lines = new ArrayList<>();
        try (Connection c = SqliteDatabase.open(db); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, username FROM users ORDER BY id LIMIT " + TOKENS)) {
            while (rs.next()) {
                lines.add(new Tokens(SECRET.getBytes(StandardCharsets.UTF_8)).mint(rs.getLong(1), rs.getString(2), now, now + 3600));
            }
        }
        Files.write(tokens, lines);
        long likesBefore = likes(db);
        StringWriter out = new StringWriter();
        int exit;
        try (ServerProcess server = ServerProcess.start(dir.resolve("server.log"), "social", "--bind", "127.0.0.1:0",
            "--sqlite-path", db.toString(), "--jwt-secret", SECRET)) {
            int port = server.awaitPort();
            exit = Main.run(new String[] {"bench", "social", "--score", "--target", "http://127.0.0.1:" + port,
                "--tokens-file", tokens.toString(), "--mix", "write-heavy", "--server-pid", Long.toString(server.process.pid()),
                "--max-connections", "30", "--warmup-users", "10", "--warmup-hold", "1s", "--start-users", "20", "--resolution", "10",
                "--step-hold", "1s", "--hold", "8s", "--ramp-up", "1s", "--ramp-down", "1s", "--max-users", "80",
                // Bounds no stall of a loaded CI machine reaches: steps of a second have a handful of
                // requests, so the challenge's p95 and p99 would be one slow answer of a cold server.
                // The search's verdicts are CapacitySearchTest's; this test is about the runs and files.
                // What stays: a time-scaled step must still answer its users' rate (about 73 answers in
                // the 8-s hold), which only a stall of seconds would break.
                "--max-p95-ms", "60000", "--max-p99-ms", "60000", "--max-generator-lag-ms", "60000",
                "--results", dir.resolve("results").toString()}, new PrintWriter(out, true), new PrintWriter(out, true));
        }
        assertThat(exit).as(out.toString()).isZero();
        Path scoreDir;
        try (Stream<Path> found = Files.list(dir.resolve("results"))) {
            scoreDir = found.filter(p -> p.getFileName().toString().endsWith("-social-score")).findFirst().orElseThrow();
        }
        String json = Files.readString(scoreDir.resolve("score.json"));
        assertThat(field(json, "mix")).isEqualTo("write-heavy");
        assertThat(field(json, "users")).isEqualTo("80");
        assertThat(field(json, "at_least")).isEqualTo("true");
        assertThat(field(json, "held")).isEqualTo("rate of 80 users over 30 connections, think times \u00f7 2.67");
        assertThat(json).contains("\"phase\" : \"warm-up\"", "\"phase\" : \"doubling\"", "\"phase\" : \"hold\"");
        String report = Files.readString(scoreDir.resolve("score.md"));
        assertThat(report).contains("write-heavy warm-up 10 users: PASS",
            "write-heavy doubling 20 users: PASS",
            "write-heavy doubling rate of 40 users over 30 connections, think times \u00f7 1.33: PASS",
            "write-heavy doubling rate of 80 users over 30 connections, think times \u00f7 2.67: PASS",
            "write-heavy hold rate of 80 users over 30 connections, think times \u00f7 2.67: PASS",
            "## write-heavy mix: at least rate of 80 users over 30 connections");
        assertThat(out.toString()).contains("memory probe, 15 connections: server RSS", "memory probe, 30 connections: server RSS");
        try (Stream<Path> runs = Files.list(scoreDir.resolve("write-heavy"))) {
            assertThat(runs.filter(p -> Files.exists(p.resolve("result.json")))).hasSize(5);
        }
        // The hold's first user starts at once, reads a post within 1.9 + 2.7 s (think times ÷ 2.67) and
        // likes it within 3 s more: before it stops at 9 s.
        assertThat(likes(db)).as("the write-heavy mix likes what it reads").isGreaterThan(likesBefore);
    }

    private static long likes(Path db) throws Exception {
        try (Connection c = SqliteDatabase.open(db); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM likes")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The first value of {@code name} in {@code json}, as text. */
    private static String field(String json, String name) throws IOException {
        try (JsonParser p = new JsonFactory().createParser(json)) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t == JsonToken.FIELD_NAME && p.currentName().equals(name)) {
                    p.nextToken();
                    return p.getText();
                }
            }
        }
        throw new AssertionError("no " + name + " in " + json);
    }
}
