package dev.hotpath.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.testing.RawHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A client that half-closes (FIN after its requests, RFC 9112 §9.6) is answered everything it sent
 * completely, in order, and then the server closes.
 */
class HalfCloseIT {
    private final TestServer server = new TestServer();

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void answersARequestFollowedByFinThenCloses() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /ping HTTP/1.1\r\nHost: a\r\n\r\n").shutdownOutput();

            assertThat(client.read().bodyText()).isEqualTo("pong");
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void answersEveryPipelinedRequestSentBeforeFinInOrderThenCloses() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /seq/1 HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /seq/2 HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /seq/3 HTTP/1.1\r\nHost: a\r\n\r\n").shutdownOutput();

            assertThat(client.read().bodyText()).isEqualTo("1");
            assertThat(client.read().bodyText()).isEqualTo("2");
            assertThat(client.read().bodyText()).isEqualTo("3");
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void answersAnAsyncRequestThatCompletesAfterTheFinThenCloses() throws Exception {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /slow/1 HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /seq/2 HTTP/1.1\r\nHost: a\r\n\r\n").shutdownOutput();
            assertThat(server.nextEvent()).isEqualTo("parked 1");

            server.complete("1");

            assertThat(client.read().bodyText()).isEqualTo("slow 1");
            assertThat(client.read().bodyText()).isEqualTo("2");
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void answersRequestsHeldBackByBackpressureWhenFinArrivedWhileReadingWasPaused() throws Exception {
        try (TestServer paused = new TestServer(limits -> limits.withMaxPendingResponses(2));
             RawHttpClient client = RawHttpClient.connect(paused.port())) {
            client.send("GET /slow/1 HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /slow/2 HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /seq/3 HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /seq/4 HTTP/1.1\r\nHost: a\r\n\r\n").shutdownOutput();
            assertThat(paused.nextEvent()).isEqualTo("parked 1");
            assertThat(paused.nextEvent()).isEqualTo("parked 2");

            paused.complete("2");
            paused.complete("1");

            assertThat(client.read().bodyText()).isEqualTo("slow 1");
            assertThat(client.read().bodyText()).isEqualTo("slow 2");
            assertThat(client.read().bodyText()).isEqualTo("3");
            assertThat(client.read().bodyText()).isEqualTo("4");
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void dropsAPartialRequestAtFinAfterAnsweringTheCompleteOnesThenCloses() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /seq/1 HTTP/1.1\r\nHost: a\r\n\r\nGET /seq/2 HTTP/1.1\r\nHo").shutdownOutput();

            assertThat(client.read().bodyText()).isEqualTo("1");
            assertThat(client.closedByServer()).isTrue();
        }
    }
}
