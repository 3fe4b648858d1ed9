package dev.hotpath.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DirectHandlerIT {
    private final TestServer server = new TestServer();

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void redirectsFromTheArenaWithExactlyTheHeadersOfAPreBuiltRedirect() {
        int a = server.addLocation("https://example.com/a?b=c");
        int b = server.addLocation("http://xn--caf-dma.example/%C3%A9");
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /to/" + a + " HTTP/1.1\r\nHost: h\r\n\r\nGET /to/" + b + " HTTP/1.1\r\nHost: h\r\n\r\n");
            RawResponse first = client.read();
            RawResponse second = client.read();
            assertThat(first.status()).isEqualTo(302);
            assertThat(first.headers()).containsOnlyKeys("date", "location", "content-length");
            assertThat(first.header("Location")).isEqualTo("https://example.com/a?b=c");
            assertThat(first.header("Content-Length")).isEqualTo("0");
            assertThat(second.header("Location")).isEqualTo("http://xn--caf-dma.example/%C3%A9");
        }
    }

    @Test
    void answersHeadAndHttp10AndCloseLikeAnyOtherResponse() {
        int a = server.addLocation("https://example.com/");
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("HEAD /to/" + a + " HTTP/1.1\r\nHost: h\r\n\r\n");
            RawResponse head = client.read(true);
            assertThat(head.status()).isEqualTo(301);
            assertThat(head.header("Location")).isEqualTo("https://example.com/");
            client.send("GET /to/" + a + " HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
            assertThat(client.read().header("Connection")).isEqualTo("keep-alive");
            client.send("GET /to/" + a + " HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n");
            RawResponse last = client.read();
            assertThat(last.header("Connection")).isEqualTo("close");
            assertThat(last.header("Location")).isEqualTo("https://example.com/");
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void queuesADirectRedirectBehindAnUnfinishedAsyncResponse() throws Exception {
        int a = server.addLocation("https://example.com/queued");
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /slow/1 HTTP/1.1\r\nHost: h\r\n\r\nGET /to/" + a + " HTTP/1.1\r\nHost: h\r\n\r\n"
                + "GET /seen/3 HTTP/1.1\r\nHost: h\r\n\r\n");
            assertThat(server.nextEvent()).isEqualTo("parked 1");
            assertThat(server.nextEvent()).isEqualTo("seen 3");
            server.complete("1");
            assertThat(client.read().bodyText()).isEqualTo("slow 1");
            RawResponse redirect = client.read();
            assertThat(redirect.status()).isEqualTo(302);
            assertThat(redirect.header("Location")).isEqualTo("https://example.com/queued");
            assertThat(client.read().bodyText()).isEqualTo("3");
        }
    }

    @Test
    void answers500WhenTheHandlerGivesNoAnswerOrThrowsAndKeepsTheConnection() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /direct/silent HTTP/1.1\r\nHost: h\r\n\r\nGET /direct/throws HTTP/1.1\r\nHost: h\r\n\r\n"
                + "GET /ping HTTP/1.1\r\nHost: h\r\n\r\n");
            assertThat(client.read().status()).isEqualTo(500);
            assertThat(client.read().status()).isEqualTo(500);
            assertThat(client.read().bodyText()).isEqualTo("pong");
        }
    }

    @Test
    void sendsOnlyTheFirstAnswerOfAHandlerThatAnswersTwice() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /direct/twice HTTP/1.1\r\nHost: h\r\n\r\nGET /seq/2 HTTP/1.1\r\nHost: h\r\n\r\n");
            assertThat(client.read().bodyText()).isEqualTo("pong");
            assertThat(client.read().bodyText()).isEqualTo("2");
        }
    }

    @Test
    void aDeferredDirectAnswerLeavesInItsTurnWhenCompletedFromAnotherThread() throws Exception {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /maybe/now-1 HTTP/1.1\r\nHost: h\r\n\r\nGET /maybe/2 HTTP/1.1\r\nHost: h\r\n\r\n"
                + "GET /seen/3 HTTP/1.1\r\nHost: h\r\n\r\n");
            assertThat(client.read().bodyText()).isEqualTo("now-1");
            assertThat(server.nextEvent()).isEqualTo("parked 2");
            assertThat(server.nextEvent()).isEqualTo("seen 3");
            Thread completer = Thread.ofPlatform().start(() -> server.complete("2"));
            completer.join();
            assertThat(client.read().bodyText()).isEqualTo("slow 2");
            assertThat(client.read().bodyText()).isEqualTo("3");
        }
    }

    @Test
    void aHandlerThatThrowsAfterDeferringIsAnswered500AndTheConnectionGoesOn() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /direct/defer-then-throw HTTP/1.1\r\nHost: h\r\n\r\nGET /ping HTTP/1.1\r\nHost: h\r\n\r\n");
            assertThat(client.read().status()).isEqualTo(500);
            assertThat(client.read().bodyText()).isEqualTo("pong");
        }
    }

    @Test
    void deferringBeyondTheInFlightLimitIsAnswered503WithRetryAfterByTheEngine() throws Exception {
        try (TestServer limited = new TestServer(limits -> limits.withMaxInFlight(1));
             RawHttpClient client = RawHttpClient.connect(limited.port())) {
            client.send("GET /maybe/1 HTTP/1.1\r\nHost: h\r\n\r\n");
            assertThat(limited.nextEvent()).isEqualTo("parked 1");
            client.send("GET /maybe/2 HTTP/1.1\r\nHost: h\r\n\r\nGET /seen/3 HTTP/1.1\r\nHost: h\r\n\r\n");
            assertThat(limited.nextEvent()).as("request 2 was handled while 1 was in flight").isEqualTo("seen 3");
            limited.complete("1");
            assertThat(client.read().bodyText()).isEqualTo("slow 1");
            RawResponse refused = client.read();
            assertThat(refused.status()).isEqualTo(503);
            assertThat(refused.header("Retry-After")).isEqualTo("1");
            assertThat(client.read().bodyText()).isEqualTo("3");
        }
    }

    @Test
    void aStreamedBodyIsSentWithExactlyTheHeadOfABuiltResponse() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /stream/12 HTTP/1.1\r\nHost: h\r\n\r\nGET /stream/0 HTTP/1.1\r\nHost: h\r\n\r\n");
            RawResponse twelve = client.read();
            assertThat(twelve.status()).isEqualTo(200);
            assertThat(twelve.headers()).containsOnlyKeys("date", "content-type", "content-length");
            assertThat(twelve.header("Content-Type")).isEqualTo("application/json");
            assertThat(twelve.bodyText()).isEqualTo(TestServer.parts(12));
            assertThat(twelve.header("Content-Length")).isEqualTo(Integer.toString(TestServer.parts(12).length()));
            assertThat(client.read().bodyText()).isEqualTo("[]");
        }
    }

    @Test
    void aStreamedAnswerToHeadSendsTheHeadAndNoBody() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("HEAD /stream/3 HTTP/1.1\r\nHost: h\r\n\r\nGET /seq/2 HTTP/1.1\r\nHost: h\r\n\r\n");
            RawResponse head = client.read(true);
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.header("Content-Length")).isEqualTo(Integer.toString(TestServer.parts(3).length()));
            assertThat(head.bodyText()).isEmpty();
            assertThat(client.read().bodyText()).as("the next answer follows the head, no body between").isEqualTo("2");
        }
    }

    @Test
    void queuesAStreamedAnswerBehindAnUnfinishedAsyncResponse() throws Exception {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /slow/1 HTTP/1.1\r\nHost: h\r\n\r\nGET /stream/4 HTTP/1.1\r\nHost: h\r\n\r\n"
                + "HEAD /stream/2 HTTP/1.1\r\nHost: h\r\n\r\nGET /seen/3 HTTP/1.1\r\nHost: h\r\n\r\n");
            assertThat(server.nextEvent()).isEqualTo("parked 1");
            assertThat(server.nextEvent()).isEqualTo("seen 3");
            server.complete("1");
            assertThat(client.read().bodyText()).isEqualTo("slow 1");
            RawResponse streamed = client.read();
            assertThat(streamed.header("Content-Type")).isEqualTo("application/json");
            assertThat(streamed.bodyText()).isEqualTo(TestServer.parts(4));
            RawResponse head = client.read(true);
            assertThat(head.header("Content-Length")).isEqualTo(Integer.toString(TestServer.parts(2).length()));
            assertThat(client.read().bodyText()).isEqualTo("3");
        }
    }

    @Test
    void aStreamedBodyShorterOrLongerThanDeclaredIsCutAndAnswered500() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /stream-short HTTP/1.1\r\nHost: h\r\n\r\nGET /stream-long HTTP/1.1\r\nHost: h\r\n\r\n"
                + "GET /stream/1 HTTP/1.1\r\nHost: h\r\n\r\n");
            RawResponse shorter = client.read();
            assertThat(shorter.status()).isEqualTo(500);
            assertThat(shorter.bodyText()).contains("internal_error");
            RawResponse longer = client.read();
            assertThat(longer.status()).isEqualTo(500);
            assertThat(longer.bodyText()).contains("internal_error");
            assertThat(client.read().bodyText()).as("nothing of the cut answers is left on the wire").isEqualTo(TestServer.parts(1));
        }
    }

    @Test
    void aLengthTheBufferCannotTakeIsAnswered500WithNothingOfItsHeadSent() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /stream-huge HTTP/1.1\r\nHost: h\r\n\r\nGET /seq/2 HTTP/1.1\r\nHost: h\r\n\r\n");
            RawResponse refused = client.read();
            assertThat(refused.status()).isEqualTo(500);
            assertThat(refused.header("Content-Length")).isNotEqualTo(Integer.toString(Integer.MAX_VALUE));
            assertThat(client.read().bodyText()).isEqualTo("2");
        }
    }

    @Test
    void aShortStreamedBodyQueuedBehindAnAsyncAnswerIsAnswered500InItsTurn() throws Exception {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /slow/1 HTTP/1.1\r\nHost: h\r\n\r\nGET /stream-short HTTP/1.1\r\nHost: h\r\n\r\n"
                + "GET /seen/3 HTTP/1.1\r\nHost: h\r\n\r\n");
            assertThat(server.nextEvent()).isEqualTo("parked 1");
            assertThat(server.nextEvent()).isEqualTo("seen 3");
            server.complete("1");
            assertThat(client.read().bodyText()).isEqualTo("slow 1");
            assertThat(client.read().status()).isEqualTo(500);
            assertThat(client.read().bodyText()).isEqualTo("3");
        }
    }

    @Test
    void aWholeStreamedBodyStandsWhenTheHandlerThrowsAfterIt() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /stream-then-throw HTTP/1.1\r\nHost: h\r\n\r\nGET /ping HTTP/1.1\r\nHost: h\r\n\r\n");
            RawResponse streamed = client.read();
            assertThat(streamed.status()).isEqualTo(200);
            assertThat(streamed.bodyText()).isEqualTo("[]");
            assertThat(client.read().bodyText()).isEqualTo("pong");
        }
    }

    @Test
    void aSinkKeptPastItsHandlerCallRefusesToWrite() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            assertThat(client.send("GET /stream-kept HTTP/1.1\r\nHost: h\r\n\r\n").read().bodyText()).isEqualTo("[][]");
        }
        assertThatThrownBy(() -> server.keptSink.writeByte('x')).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("outside its handler call");
    }
}
