package dev.hotpath.loadgen.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.loadgen.RunConfig;
import dev.hotpath.loadgen.Workload;
import dev.hotpath.loadgen.Workload.Outcome;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The social journey's requests, byte for byte, and its check of a feed's order: newest first by
 * {@code created_at}, then by id, each timestamp of the stored shape.
 */
class SocialScenarioTest {
    /** A token whose payload names the user {@code u} (the journey reads only the username). */
    private static final String TOKEN = "a.eyJ1c2VybmFtZSI6InUifQ.c";
    private static final RunConfig CONFIG = RunConfig.saturate("127.0.0.1", 8080, 1, 1, Duration.ofSeconds(1));
    private static final String HOST = "Host: 127.0.0.1:8080\r\n";

    /** Every user likes each post it reads (the write-heavy mix), so a journey's third request is a like. */
    private final Workload journey = new SocialScenario(List.of(TOKEN), SocialScenario.Mix.WRITE_HEAVY, 1)
        .prepare(CONFIG).forConnection(0);
    private final SplittableRandom random = new SplittableRandom(7);

    private static String post(long id, String createdAt) {
        return "{\"id\":" + id + ",\"body\":\"b\",\"created_at\":\"" + createdAt + "\",\"author\":\"a\",\"like_count\":0}";
    }

    private static String feed(String... posts) {
        return "{\"posts\":[" + String.join(",", posts) + "]}";
    }

    /** The check of {@code body} as the answer to a feed (the journey stays at its feed: no answer moves it on). */
    private Outcome checkFeed(String body) {
        return journey.check(journey.next(random), StubAnswer.of(200, body));
    }

    private String request(long tag) {
        ByteBuf out = Unpooled.buffer();
        journey.write(tag, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void writesTheFeedThePostAndTheLikeItReads() {
        long feedTag = journey.next(random);
        assertThat(request(feedTag)).isEqualTo("GET /feed HTTP/1.1\r\n" + HOST + "\r\n");
        assertThat(journey.check(feedTag, StubAnswer.of(200, feed(post(70, "2025-03-01T10:00:00.000Z")))))
            .isEqualTo(Outcome.OK);
        journey.afterAnswer(feedTag, random);
        long readTag = journey.next(random);
        assertThat(request(readTag)).isEqualTo("GET /posts/70 HTTP/1.1\r\n" + HOST + "\r\n");
        assertThat(journey.check(readTag, StubAnswer.of(200, "{\"post\":" + post(70, "2025-03-01T10:00:00.000Z") + "}")))
            .isEqualTo(Outcome.OK);
        journey.afterAnswer(readTag, random);
        assertThat(request(journey.next(random))).isEqualTo("POST /posts/70/like HTTP/1.1\r\n" + HOST
            + "Authorization: Bearer " + TOKEN + "\r\nContent-Length: 0\r\n\r\n");
    }

    @Test
    void passesAFeedNewestFirstWithTiesByIdDescending() {
        assertThat(checkFeed(feed(post(9, "2025-03-01T10:00:00.001Z"), post(8, "2025-03-01T10:00:00.000Z"),
            post(5, "2025-03-01T10:00:00.000Z"), post(6, "2024-12-31T23:59:59.999Z")))).isEqualTo(Outcome.OK);
    }

    @Test
    void failsAFeedOutOfOrder() {
        assertThat(checkFeed(feed(post(1, "2025-03-01T10:00:00.000Z"), post(2, "2025-03-01T10:00:00.001Z"))))
            .as("a newer post after an older one").isEqualTo(Outcome.MISMATCH);
        assertThat(checkFeed(feed(post(5, "2025-03-01T10:00:00.000Z"), post(8, "2025-03-01T10:00:00.000Z"))))
            .as("the same time, a higher id second").isEqualTo(Outcome.MISMATCH);
        assertThat(checkFeed(feed(post(5, "2025-03-01T10:00:00.000Z"), post(5, "2025-03-01T10:00:00.000Z"))))
            .as("the same post twice").isEqualTo(Outcome.MISMATCH);
    }

    @Test
    void failsATimestampOfAnotherShape() {
        assertThat(checkFeed(feed(post(1, "2025-03-01T10:00:00Z")))).isEqualTo(Outcome.MISMATCH);
        assertThat(checkFeed(feed(post(1, "2025-03-01 10:00:00.000Z")))).isEqualTo(Outcome.MISMATCH);
        assertThat(checkFeed(feed(post(1, "2025-03-01T10:00:00.000Z"), post(0, "2025-03-01T10:00:00.00aZ"))))
            .isEqualTo(Outcome.MISMATCH);
    }

    @Test
    void comparesEachFeedOnlyWithinItself() {
        assertThat(checkFeed(feed(post(1, "2025-01-01T00:00:00.000Z"), post(2, "2025-06-01T00:00:00.000Z"))))
            .isEqualTo(Outcome.MISMATCH);
        assertThat(checkFeed(feed(post(3, "2025-12-01T00:00:00.000Z"))))
            .as("a newer first post than the failed feed's last").isEqualTo(Outcome.OK);
        assertThat(checkFeed(feed(post(4, "2026-01-01T00:00:00.000Z"), post(3, "2025-12-01T00:00:00.000Z"))))
            .as("a newer first post than the last feed's").isEqualTo(Outcome.OK);
    }
}
