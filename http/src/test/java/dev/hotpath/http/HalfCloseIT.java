package dev.hotpath.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.testing.RawHttpClient;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.uring.IoUring;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A client that half-closes (FIN after its requests, RFC 9112 §9.6) is answered everything it sent
 * completely, in order, and then the server closes; on every transport that loads here, since each
 * reports the FIN its own way.
 */
class HalfCloseIT {
    /**
     * A response far beyond the socket buffers, asked for before the client reads anything: the server
     * still holds most of it, and what queued behind it, when it has answered everything.
     */
    private static final int LARGE_RESPONSE = 8_000_000;

    static List<Transport> transportsThatLoad() {
        List<Transport> transports = new ArrayList<>(List.of(Transport.NIO));
        if (Epoll.isAvailable()) {
            transports.add(Transport.EPOLL);
        }
        if (IoUring.isAvailable()) {
            transports.add(Transport.IO_URING);
        }
        return transports;
    }

    @ParameterizedTest
    @MethodSource("transportsThatLoad")
    void answersARequestFollowedByFinThenCloses(Transport transport) {
        try (TestServer server = new TestServer(UnaryOperator.identity(), transport);
             RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /ping HTTP/1.1\r\nHost: a\r\n\r\n").shutdownOutput();

            assertThat(client.read().bodyText()).isEqualTo("pong");
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @ParameterizedTest
    @MethodSource("transportsThatLoad")
    void answersEveryPipelinedRequestSentBeforeFinInOrderThenCloses(Transport transport) {
        try (TestServer server = new TestServer(UnaryOperator.identity(), transport);
             RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /seq/1 HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /seq/2 HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /seq/3 HTTP/1.1\r\nHost: a\r\n\r\n").shutdownOutput();

            assertThat(client.read().bodyText()).isEqualTo("1");
            assertThat(client.read().bodyText()).isEqualTo("2");
            assertThat(client.read().bodyText()).isEqualTo("3");
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @ParameterizedTest
    @MethodSource("transportsThatLoad")
    void answersAnAsyncRequestThatCompletesAfterTheFinThenCloses(Transport transport) throws Exception {
        try (TestServer server = new TestServer(UnaryOperator.identity(), transport);
             RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /slow/1 HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /seq/2 HTTP/1.1\r\nHost: a\r\n\r\n").shutdownOutput();
            assertThat(server.nextEvent()).isEqualTo("parked 1");

            server.complete("1");

            assertThat(client.read().bodyText()).isEqualTo("slow 1");
            assertThat(client.read().bodyText()).isEqualTo("2");
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @ParameterizedTest
    @MethodSource("transportsThatLoad")
    void answersRequestsHeldBackByBackpressureWhenFinArrivedWhileReadingWasPaused(Transport transport)
        throws Exception {
        try (TestServer server = new TestServer(limits -> limits.withMaxPendingResponses(2), transport);
             RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /slow/1 HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /slow/2 HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /seq/3 HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /seq/4 HTTP/1.1\r\nHost: a\r\n\r\n").shutdownOutput();
            assertThat(server.nextEvent()).isEqualTo("parked 1");
            assertThat(server.nextEvent()).isEqualTo("parked 2");

            server.complete("2");
            server.complete("1");

            assertThat(client.read().bodyText()).isEqualTo("slow 1");
            assertThat(client.read().bodyText()).isEqualTo("slow 2");
            assertThat(client.read().bodyText()).isEqualTo("3");
            assertThat(client.read().bodyText()).isEqualTo("4");
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @ParameterizedTest
    @MethodSource("transportsThatLoad")
    void sendsAResponseQueuedBehindALargeOneInFullBeforeClosing(Transport transport) throws Exception {
        try (TestServer server = new TestServer(UnaryOperator.identity(), transport);
             RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /zeros/" + LARGE_RESPONSE + " HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /slow/1 HTTP/1.1\r\nHost: a\r\n\r\n").shutdownOutput();
            assertThat(server.nextEvent()).isEqualTo("parked 1");
            server.complete("1");

            assertThat(client.read().body()).isEqualTo(new byte[LARGE_RESPONSE]);
            assertThat(client.read().bodyText()).isEqualTo("slow 1");
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @ParameterizedTest
    @MethodSource("transportsThatLoad")
    void dropsAPartialRequestAtFinAfterAnsweringTheCompleteOnesThenCloses(Transport transport) {
        try (TestServer server = new TestServer(UnaryOperator.identity(), transport);
             RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /seq/1 HTTP/1.1\r\nHost: a\r\n\r\nGET /seq/2 HTTP/1.1\r\nHo").shutdownOutput();

            assertThat(client.read().bodyText()).isEqualTo("1");
            assertThat(client.closedByServer()).isTrue();
        }
    }
}
