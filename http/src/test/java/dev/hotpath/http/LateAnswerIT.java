package dev.hotpath.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Async answers completed with a {@link LateAnswer}, which the connection's loop writes itself in
 * their turn: the order of a connection's answers, what a late answer may and may not do, and what
 * a failing one is answered.
 */
class LateAnswerIT {
    private static final String GET = " HTTP/1.1\r\nHost: h\r\n\r\n";
    private final TestServer server = new TestServer();
    /** The threads late answers ran on. */
    private final List<String> answeredOn = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aLateAnswerGoesOutInItsTurnAheadOfTheAnswersQueuedBehindIt() throws Exception {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /slow/1" + GET + "GET /seen/2" + GET + "GET /slow/3" + GET + "GET /stream/2" + GET);
            assertThat(server.nextEvent()).isEqualTo("parked 1");
            assertThat(server.nextEvent()).isEqualTo("seen 2");
            assertThat(server.nextEvent()).isEqualTo("parked 3");
            Thread completer = Thread.ofPlatform().name("completer").start(() -> {
                server.completeOnLoop("3", streamed("late 3"));
                server.completeOnLoop("1", streamed("late 1"));
            });
            completer.join();
            RawResponse first = client.read();
            assertThat(first.status()).isEqualTo(201);
            assertThat(first.header("Content-Type")).isEqualTo("application/json");
            assertThat(first.header("Content-Length")).isEqualTo("6");
            assertThat(first.bodyText()).isEqualTo("late 1");
            assertThat(client.read().bodyText()).isEqualTo("2");
            assertThat(client.read().bodyText()).isEqualTo("late 3");
            assertThat(client.read().bodyText()).isEqualTo(TestServer.parts(2));
        }
        assertThat(answeredOn).hasSize(2).noneMatch("completer"::equals);
    }

    @Test
    void aLateAnswerMaySendABuiltResponseAndHeadGetsItsHeadOnly() throws Exception {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("HEAD /slow/1" + GET + "GET /slow/2" + GET);
            assertThat(server.nextEvent()).isEqualTo("parked 1");
            assertThat(server.nextEvent()).isEqualTo("parked 2");
            server.completeOnLoop("1", streamed("late 1"));
            server.completeOnLoop("2", responder -> responder.send(Response.text(202, "sent late")));
            RawResponse head = client.read(true);
            assertThat(head.status()).isEqualTo(201);
            assertThat(head.header("Content-Length")).isEqualTo("6");
            RawResponse sent = client.read();
            assertThat(sent.status()).isEqualTo(202);
            assertThat(sent.bodyText()).isEqualTo("sent late");
        }
    }

    @Test
    void aLateAnswerThatFailsOrGivesNoWholeAnswerIsA500AndTheConnectionGoesOn() throws Exception {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /slow/throws" + GET + "GET /slow/silent" + GET + "GET /slow/short" + GET
                + "GET /slow/long" + GET + "GET /slow/defers" + GET + "GET /slow/twice" + GET
                + "GET /slow/streamed-then-throws" + GET + "GET /ping" + GET);
            for (int i = 0; i < 7; i++) {
                assertThat(server.nextEvent()).startsWith("parked ");
            }
            server.completeOnLoop("throws", responder -> {
                throw new IllegalStateException("boom");
            });
            server.completeOnLoop("silent", responder -> { });
            server.completeOnLoop("short", responder -> responder.stream(200, ContentType.JSON, 10).write(ascii("[1]")));
            server.completeOnLoop("long", responder -> responder.stream(200, ContentType.JSON, 2).write(ascii("[1]")));
            server.completeOnLoop("defers", Responder::defer);
            server.completeOnLoop("twice", responder -> {
                responder.send(Response.text(200, "first"));
                responder.send(Response.text(200, "second"));
            });
            server.completeOnLoop("streamed-then-throws", responder -> {
                responder.stream(200, ContentType.JSON, 2).write(ascii("{}"));
                throw new IllegalStateException("boom after a whole body");
            });
            for (String failed : new String[] {"throws", "silent", "short", "long", "defers"}) {
                RawResponse answer = client.read();
                assertThat(answer.status()).as(failed).isEqualTo(500);
                assertThat(answer.bodyText()).as(failed).contains("internal_error");
            }
            assertThat(client.read().bodyText()).as("the first of two answers stands").isEqualTo("first");
            assertThat(client.read().bodyText()).as("a whole body stands").isEqualTo("{}");
            assertThat(client.read().bodyText()).isEqualTo("pong");
        }
    }

    @Test
    void aSlotCompletesOnceWhicheverWayItIsCompleted() throws Exception {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /slow/1" + GET + "GET /slow/2" + GET);
            assertThat(server.nextEvent()).isEqualTo("parked 1");
            assertThat(server.nextEvent()).isEqualTo("parked 2");
            Deferred late = server.take("1");
            late.completeOnLoop(streamed("late 1"));
            assertThatThrownBy(() -> late.complete(TestServer.PONG)).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> late.completeOnLoop(streamed("again"))).isInstanceOf(IllegalStateException.class);
            Deferred built = server.take("2");
            built.complete(TestServer.PONG);
            assertThatThrownBy(() -> built.completeOnLoop(streamed("again"))).isInstanceOf(IllegalStateException.class);
            assertThat(client.read().bodyText()).isEqualTo("late 1");
            assertThat(client.read().bodyText()).isEqualTo("pong");
            assertThat(client.send("GET /ping" + GET).read().bodyText()).isEqualTo("pong");
        }
        assertThat(answeredOn).hasSize(1);
    }

    @Test
    void aLateRedirectGoesOutInItsTurnFromTheArena() throws Exception {
        HeaderArena arena = new HeaderArena();
        long location = arena.add("https://example.com/late");
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /slow/1" + GET + "GET /seen/2" + GET);
            assertThat(server.nextEvent()).isEqualTo("parked 1");
            assertThat(server.nextEvent()).isEqualTo("seen 2");
            server.completeOnLoop("1", responder -> responder.redirect(303, arena, location));
            RawResponse redirect = client.read();
            assertThat(redirect.status()).isEqualTo(303);
            assertThat(redirect.header("Location")).isEqualTo("https://example.com/late");
            assertThat(client.read().bodyText()).isEqualTo("2");
        }
    }

    @Test
    void aRequestRefusedBehindALateAnswerIsAnsweredAfterItAndCloses() throws Exception {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /slow/1" + GET + "GET /ping HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
            assertThat(server.nextEvent()).isEqualTo("parked 1");
            server.completeOnLoop("1", streamed("late 1"));
            assertThat(client.read().bodyText()).isEqualTo("late 1");
            RawResponse refused = client.read();
            assertThat(refused.status()).isEqualTo(400);
            assertThat(refused.header("Connection")).isEqualTo("close");
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void anErrorThrownByALateAnswerClosesTheConnectionWithNothingOfItSent() throws Exception {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /slow/1" + GET + "GET /ping" + GET);
            assertThat(server.nextEvent()).isEqualTo("parked 1");
            server.completeOnLoop("1", responder -> {
                responder.stream(201, ContentType.JSON, 10).write(ascii("[1,2"));
                throw new AssertionError("an error no handler should throw");
            });
            assertThat(client.closedByServer()).as("closed, and no byte of the broken answer sent").isTrue();
        }
        try (RawHttpClient other = RawHttpClient.connect(server.port())) {
            assertThat(other.send("GET /ping" + GET).read().bodyText()).isEqualTo("pong");
        }
    }

    private LateAnswer streamed(String body) {
        return responder -> {
            answeredOn.add(Thread.currentThread().getName());
            byte[] bytes = ascii(body);
            responder.stream(201, ContentType.JSON, bytes.length).write(bytes);
        };
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
