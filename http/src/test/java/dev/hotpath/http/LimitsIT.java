package dev.hotpath.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Every limit of {@link ServerLimits} over a real socket, with the clock moved by hand for deadlines. */
class LimitsIT {

    @Test
    void answers414ForALongRequestLineAndCloses() {
        try (TestServer server = new TestServer(); RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse response = client.send("GET /" + "a".repeat(ServerLimits.MAX_REQUEST_LINE_BYTES) + " HTTP/1.1\r\n").read();
            assertThat(response.status()).isEqualTo(414);
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void answers431ForTooManyHeaderFields() {
        try (TestServer server = new TestServer(l -> l.withMaxHeaderFields(3));
             RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse response = client.send("GET /ping HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n").read();
            assertThat(response.status()).isEqualTo(431);
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void answers431ForAHeaderBlockOverTheLimit() {
        try (TestServer server = new TestServer(l -> l.withMaxHeaderBytes(64));
             RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse response = client.send("GET /ping HTTP/1.1\r\nHost: a\r\nX: " + "v".repeat(64)).read();
            assertThat(response.status()).isEqualTo(431);
        }
    }

    @Test
    void answers413AtOnceWithoutWaitingForTheBody() {
        try (TestServer server = new TestServer(); RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse response = client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: "
                + (ServerLimits.MAX_BODY_BYTES + 1) + "\r\n\r\n").read();
            assertThat(response.status()).isEqualTo(413);
            assertThat(response.bodyText()).contains("\"error\":\"body_too_large\"");
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void answers408WhenARequestIsNotCompletedBeforeTheDeadline() {
        try (TestServer server = new TestServer(); RawHttpClient client = RawHttpClient.connect(server.port())) {
            // The interim 100 proves the server holds the partial request before the clock moves.
            client.send("POST /echo HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n");
            assertThat(client.read().status()).isEqualTo(100);

            server.clock.advance(ServerLimits.REQUEST_TIMEOUT.minusMillis(1));
            server.server.checkDeadlines();
            assertThat(client.hasBufferedBytes()).isFalse();

            server.clock.advance(Duration.ofMillis(1));
            server.server.checkDeadlines();
            RawResponse response = client.read();
            assertThat(response.status()).isEqualTo(408);
            assertThat(response.header("Connection")).isEqualTo("close");
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void closesAConnectionIdleForTheKeepAliveTimeout() {
        try (TestServer server = new TestServer(); RawHttpClient client = RawHttpClient.connect(server.port())) {
            assertThat(client.send("GET /ping HTTP/1.1\r\nHost: a\r\n\r\n").read().status()).isEqualTo(200);

            server.clock.advance(ServerLimits.IDLE_TIMEOUT.minusMillis(1));
            server.server.checkDeadlines();
            assertThat(client.send("GET /ping HTTP/1.1\r\nHost: a\r\n\r\n").read().status()).isEqualTo(200);

            server.clock.advance(ServerLimits.IDLE_TIMEOUT);
            server.server.checkDeadlines();
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void keepsAConnectionWhoseAsyncResponseIsStillOpenPastTheIdleTimeout() throws Exception {
        try (TestServer server = new TestServer(); RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /slow/1 HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(server.nextEvent()).isEqualTo("parked 1");
            server.clock.advance(ServerLimits.IDLE_TIMEOUT.multipliedBy(2));
            server.server.checkDeadlines();
            server.complete("1");
            assertThat(client.read().bodyText()).isEqualTo("slow 1");
            assertThat(server.nextEvent()).isEqualTo("completed 1");
        }
    }

    @Test
    void closesConnectionsBeyondTheLimitAtOnce() {
        try (TestServer server = new TestServer(l -> l.withMaxConnections(2));
             RawHttpClient first = RawHttpClient.connect(server.port());
             RawHttpClient second = RawHttpClient.connect(server.port())) {
            assertThat(first.send("GET /ping HTTP/1.1\r\nHost: a\r\n\r\n").read().status()).isEqualTo(200);
            assertThat(second.send("GET /ping HTTP/1.1\r\nHost: a\r\n\r\n").read().status()).isEqualTo(200);
            try (RawHttpClient third = RawHttpClient.connect(server.port())) {
                assertThat(third.closedByServer()).isTrue();
            }
            first.close();
            assertThat(second.send("GET /ping HTTP/1.1\r\nHost: a\r\n\r\n").read().status()).isEqualTo(200);
        }
    }

    @Test
    void answers503WithRetryAfterWhenTooMuchAsyncWorkIsInFlight() throws Exception {
        try (TestServer server = new TestServer(l -> l.withMaxInFlight(1));
             RawHttpClient first = RawHttpClient.connect(server.port());
             RawHttpClient second = RawHttpClient.connect(server.port())) {
            first.send("GET /slow/1 HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(server.nextEvent()).isEqualTo("parked 1");

            RawResponse refused = second.send("GET /slow/2 HTTP/1.1\r\nHost: a\r\n\r\n").read();
            assertThat(refused.status()).isEqualTo(503);
            assertThat(refused.header("Retry-After")).isEqualTo("1");

            server.complete("1");
            assertThat(server.nextEvent()).isEqualTo("completed 1");
            assertThat(first.read().bodyText()).isEqualTo("slow 1");
            second.send("GET /slow/3 HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(server.nextEvent()).isEqualTo("parked 3");
            server.complete("3");
            assertThat(second.read().bodyText()).isEqualTo("slow 3");
        }
    }

    @Test
    void stopsDecodingAtThePendingLimitAndResumesWhenResponsesDrain() throws Exception {
        try (TestServer server = new TestServer(l -> l.withMaxPendingResponses(2));
             RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /slow/1 HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /seen/2 HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /seen/3 HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /seen/4 HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(server.nextEvent()).isEqualTo("parked 1");
            assertThat(server.nextEvent()).isEqualTo("seen 2");

            server.complete("1");

            assertThat(server.nextEvent()).isEqualTo("completed 1");
            assertThat(server.nextEvent()).isEqualTo("seen 3");
            assertThat(server.nextEvent()).isEqualTo("seen 4");
            assertThat(client.read().bodyText()).isEqualTo("slow 1");
            assertThat(client.read().bodyText()).isEqualTo("2");
            assertThat(client.read().bodyText()).isEqualTo("3");
            assertThat(client.read().bodyText()).isEqualTo("4");
        }
    }
}
