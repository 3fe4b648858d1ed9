package dev.hotpath.loadgen.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.loadgen.RunConfig;
import dev.hotpath.loadgen.Workload;
import dev.hotpath.loadgen.Workload.Outcome;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The requests of {@code users-get} and {@code users-mix} and the checks of their answers: the answer
 * the users API defines passes, and every kind of wrong one fails, as an unexpected status or a mismatch.
 */
class UsersScenarioTest {
    private static final String TOKEN = "test-token-aaaaaaaaaaaaaaaaaaaa";
    private static final RunConfig CONFIG = RunConfig.saturate("127.0.0.1", 8080, 1, 1, Duration.ofSeconds(1));
    private static final String USER_42 =
        "{\"id\":42,\"name\":\"user-42\",\"email\":\"user-42@example.com\",\"created_at\":\"2026-01-01T00:00:00Z\"}";
    private static final Pattern CREATE_BODY = Pattern.compile("\\{\"name\":\"([^\"]+)\",\"email\":\"([^\"]+)\"}$");

    private final Workload reads = new UserReadScenario(TOKEN).prepare(CONFIG);
    private final Workload mix = new UsersMixScenario(TOKEN).prepare(CONFIG);

    @Test
    void readsAPreloadedUserWithTheBearerToken() {
        assertThat(request(reads, 42)).isEqualTo("GET /api/users/42 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"
            + "Authorization: Bearer " + TOKEN + "\r\n\r\n");
    }

    @Test
    void asksForIdsUniformlyOverThePreloadedUsers() {
        SplittableRandom random = new SplittableRandom(1);
        long min = Long.MAX_VALUE;
        long max = 0;
        for (int i = 0; i < 200_000; i++) {
            long id = reads.next(random);
            min = Math.min(min, id);
            max = Math.max(max, id);
        }
        assertThat(min).isEqualTo(1);
        assertThat(max).isEqualTo(10_000);
    }

    @Test
    void passesTheUsersExactJson() {
        assertThat(reads.check(42, StubAnswer.of(200, USER_42))).isEqualTo(Outcome.OK);
        assertThat(reads.check(10_000, StubAnswer.of(200, USER_42.replace("42", "10000")))).isEqualTo(Outcome.OK);
    }

    @Test
    void countsAnotherStatusAsUnexpected() {
        assertThat(reads.check(42, StubAnswer.of(401, "{\"error\":\"unauthorized\",\"message\":\"a valid bearer token is required\"}")))
            .isEqualTo(Outcome.UNEXPECTED_STATUS);
        assertThat(reads.check(42, StubAnswer.of(404, "{\"error\":\"not_found\",\"message\":\"no user with this id\"}")))
            .isEqualTo(Outcome.UNEXPECTED_STATUS);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"id\":43,\"name\":\"user-43\",\"email\":\"user-43@example.com\",\"created_at\":\"2026-01-01T00:00:00Z\"}",
        "{\"id\": 42,\"name\":\"user-42\",\"email\":\"user-42@example.com\",\"created_at\":\"2026-01-01T00:00:00Z\"}",
        "{\"name\":\"user-42\",\"id\":42,\"email\":\"user-42@example.com\",\"created_at\":\"2026-01-01T00:00:00Z\"}",
        "{\"id\":42,\"name\":\"user-42\",\"email\":\"user-42@example.com\",\"created_at\":\"2026-01-01T00:00:00.000Z\"}",
        "{\"id\":42,\"name\":\"user-42\",\"email\":\"user-42@example.com\"}",
        "{\"id\":42,\"name\":\"user-42\",\"email\":\"user-42@example.com\",\"created_at\":\"2026-01-01T00:00:00Z\"}\n",
        "{\"id\":\"42\",\"name\":\"user-42\",\"email\":\"user-42@example.com\",\"created_at\":\"2026-01-01T00:00:00Z\"}",
        ""})
    void countsEveryOtherBodyAsAMismatch(String body) {
        assertThat(reads.check(42, StubAnswer.of(200, body))).isEqualTo(Outcome.MISMATCH);
        assertThat(reads.describe(42, StubAnswer.of(200, body))).startsWith("GET /api/users/42 expected 200 " + USER_42);
    }

    @Test
    void mixesReadsPagesAndCreatesEightyFifteenFive() {
        SplittableRandom random = new SplittableRandom(7);
        int draws = 100_000;
        int pages = 0;
        int creates = 0;
        for (int i = 0; i < draws; i++) {
            String request = request(mix, mix.next(random));
            if (request.startsWith("GET /api/users?limit=20 HTTP/1.1\r\n")) {
                pages++;
            } else if (request.startsWith("POST /api/users HTTP/1.1\r\n")) {
                creates++;
                assertThat(request).contains("Authorization: Bearer " + TOKEN + "\r\n", "Content-Type: application/json\r\n");
            } else {
                assertThat(request).matches("(?s)GET /api/users/\\d+ HTTP/1\\.1\r\n.*");
            }
        }
        assertThat(pages).isBetween(draws * 14 / 100, draws * 16 / 100);
        assertThat(creates).isBetween(draws * 4 / 100, draws * 6 / 100);
    }

    @Test
    void passesTheExactFirstPageOnly() {
        long page = tagOf("GET /api/users?limit=20 ");
        StringBuilder users = new StringBuilder();
        for (int id = 1; id <= 20; id++) {
            users.append(id == 1 ? "" : ",").append(USER_42.replace("42", Integer.toString(id)));
        }
        String right = "{\"users\":[" + users + "],\"next\":20}";
        assertThat(mix.check(page, StubAnswer.of(200, right))).isEqualTo(Outcome.OK);
        assertThat(mix.check(page, StubAnswer.of(400, "{\"error\":\"invalid_query\",\"message\":\"limit\"}")))
            .isEqualTo(Outcome.UNEXPECTED_STATUS);
        assertThat(mix.check(page, StubAnswer.of(200, right.replace("\"next\":20", "\"next\":null")))).isEqualTo(Outcome.MISMATCH);
        assertThat(mix.check(page, StubAnswer.of(200, right.replace(",\"next\":20", "")))).isEqualTo(Outcome.MISMATCH);
        String nineteen = right.substring(0, right.lastIndexOf(",{")) + "],\"next\":20}";
        assertThat(mix.check(page, StubAnswer.of(200, nineteen))).isEqualTo(Outcome.MISMATCH);
        assertThat(mix.describe(page, StubAnswer.of(200, nineteen))).startsWith("GET /api/users?limit=20 expected 200");
    }

    @Test
    void passesACreatedUserWithTheNameAndEmailSentAndAFreshId() {
        long create = tagOf("POST /api/users ");
        Matcher sent = sentUser(create);
        assertThat(mix.check(create, StubAnswer.of(201, created(10_001, sent.group(1), sent.group(2), "2026-12-01T10:15:30Z"))))
            .isEqualTo(Outcome.OK);
        long another = tagOf("POST /api/users ");
        Matcher anotherSent = sentUser(another);
        assertThat(anotherSent.group(1)).as("a name of its own per create").isNotEqualTo(sent.group(1));
        assertThat(anotherSent.group(2)).isNotEqualTo(sent.group(2));
        String again = created(10_001, anotherSent.group(1), anotherSent.group(2), "2026-12-01T10:15:31Z");
        assertThat(mix.check(another, StubAnswer.of(201, again))).as("an id given twice").isEqualTo(Outcome.MISMATCH);
        assertThat(mix.describe(another, StubAnswer.of(201, again))).contains("answered id 10001, already given for " + sent.group(1));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"id\":10000,\"name\":\"NAME\",\"email\":\"EMAIL\",\"created_at\":\"2026-12-01T10:15:30Z\"}",
        "{\"id\":10002,\"name\":\"someone-else\",\"email\":\"EMAIL\",\"created_at\":\"2026-12-01T10:15:30Z\"}",
        "{\"id\":10002,\"name\":\"NAME\",\"email\":\"other@example.com\",\"created_at\":\"2026-12-01T10:15:30Z\"}",
        "{\"id\":10002,\"name\":\"NAME\",\"email\":\"EMAIL\",\"created_at\":\"2026-12-01T10:15:30.123Z\"}",
        "{\"id\":10002,\"name\":\"NAME\",\"email\":\"EMAIL\",\"created_at\":\"2026-12-01T10:15:30+00:00\"}",
        "{\"id\":10002,\"name\":\"NAME\",\"email\":\"EMAIL\",\"created_at\":\"2026-12-01 10:15:30Z\"}",
        "{\"id\":10002,\"name\":\"NAME\",\"email\":\"EMAIL\",\"created_at\":\"2026-12-01T10:15:30Z\",\"role\":\"x\"}",
        "{\"id\":10002,\"email\":\"EMAIL\",\"name\":\"NAME\",\"created_at\":\"2026-12-01T10:15:30Z\"}",
        "{\"id\":10002,\"name\":\"NAME\",\"email\":\"EMAIL\"}",
        "{\"id\":\"10002\",\"name\":\"NAME\",\"email\":\"EMAIL\",\"created_at\":\"2026-12-01T10:15:30Z\"}",
        "{\"user\":{\"id\":10002,\"name\":\"NAME\",\"email\":\"EMAIL\",\"created_at\":\"2026-12-01T10:15:30Z\"}}",
        "{\"id\":10002,\"name\":\"NAME\",\"email\":\"EMAIL\",\"created_at\":\"2026-12-01T10:15:30Z\"}{}",
        "not json"})
    void countsEveryOtherCreatedBodyAsAMismatch(String template) {
        long create = tagOf("POST /api/users ");
        Matcher sent = sentUser(create);
        String body = template.replace("NAME", sent.group(1)).replace("EMAIL", sent.group(2));
        assertThat(mix.check(create, StubAnswer.of(201, body))).isEqualTo(Outcome.MISMATCH);
        assertThat(mix.describe(create, StubAnswer.of(201, body))).startsWith("POST /api/users for " + sent.group(1) + " expected 201");
    }

    @Test
    void countsACreateAnsweredWithAnotherStatusAsUnexpected() {
        long create = tagOf("POST /api/users ");
        Matcher sent = sentUser(create);
        assertThat(mix.check(create, StubAnswer.of(200, created(10_001, sent.group(1), sent.group(2), "2026-12-01T10:15:30Z"))))
            .isEqualTo(Outcome.UNEXPECTED_STATUS);
        assertThat(mix.check(create, StubAnswer.of(422, "{\"error\":\"invalid_user\",\"message\":\"x\"}")))
            .isEqualTo(Outcome.UNEXPECTED_STATUS);
    }

    @Test
    void checksItsReadsAsUsersGetDoes() {
        long read = tagOf("GET /api/users/");
        String request = request(mix, read);
        String id = request.substring("GET /api/users/".length(), request.indexOf(' ', 4));
        assertThat(mix.check(read, StubAnswer.of(200, USER_42.replace("42", id)))).isEqualTo(Outcome.OK);
        assertThat(mix.check(read, StubAnswer.of(200, USER_42.replace("42", id + "1")))).isEqualTo(Outcome.MISMATCH);
    }

    private static String created(long id, String name, String email, String createdAt) {
        return "{\"id\":" + id + ",\"name\":\"" + name + "\",\"email\":\"" + email + "\",\"created_at\":\"" + createdAt + "\"}";
    }

    /** The first tag the mix draws whose request starts with {@code start}. */
    private long tagOf(String start) {
        SplittableRandom random = new SplittableRandom(3);
        while (true) {
            long tag = mix.next(random);
            if (request(mix, tag).startsWith(start)) {
                return tag;
            }
        }
    }

    private Matcher sentUser(long create) {
        Matcher m = CREATE_BODY.matcher(request(mix, create));
        assertThat(m.find()).isTrue();
        return m;
    }

    private static String request(Workload workload, long tag) {
        ByteBuf out = Unpooled.buffer();
        try {
            workload.write(tag, out);
            return out.toString(StandardCharsets.UTF_8);
        } finally {
            out.release();
        }
    }
}
