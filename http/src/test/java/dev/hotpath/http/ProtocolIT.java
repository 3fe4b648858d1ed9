package dev.hotpath.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What a client sees over a real socket: answers, headers, and when the connection closes. */
class ProtocolIT {
    private final TestServer server = new TestServer();

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void answersWithDateContentLengthAndKeepsTheConnection() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse response = client.send("GET /ping HTTP/1.1\r\nHost: a\r\n\r\n").read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.bodyText()).isEqualTo("pong");
            assertThat(response.header("Content-Length")).isEqualTo("4");
            assertThat(response.header("Date")).isEqualTo("Mon, 30 Nov 2026 00:00:00 GMT");
            assertThat(response.header("Connection")).isNull();
            assertThat(client.send("GET /ping HTTP/1.1\r\nHost: a\r\n\r\n").read().bodyText()).isEqualTo("pong");
        }
    }

    @Test
    void rejectsAmbiguousFramingWithAJsonErrorAndCloses() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse response = client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n").read();
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.header("Content-Type")).isEqualTo("application/json");
            assertThat(response.header("Connection")).isEqualTo("close");
            assertThat(response.bodyText()).isEqualTo(
                "{\"error\":\"bad_request\",\"message\":\"both Content-Length and Transfer-Encoding\"}");
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void answersAnUnsupportedTransferCodingWith501() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse response = client.send("POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n").read();
            assertThat(response.status()).isEqualTo(501);
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void answersAnUnknownExpectationWith417() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse response = client.send("POST /echo HTTP/1.1\r\nHost: a\r\nExpect: magic\r\n"
                + "Content-Length: 1\r\n\r\nx").read();
            assertThat(response.status()).isEqualTo(417);
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void sendsOneContinueBeforeTheBodyArrivesThenTheAnswer() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("POST /echo HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n");
            assertThat(client.read().status()).isEqualTo(100);
            RawResponse response = client.send("hello").read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.bodyText()).isEqualTo("hello");
        }
    }

    @Test
    void sendsNoContinueWhenTheBodyCameWithTheHead() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse response = client.send("POST /echo HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\n"
                + "Content-Length: 5\r\n\r\nhello").read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.bodyText()).isEqualTo("hello");
        }
    }

    @Test
    void reassemblesAChunkedBody() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n");
            RawResponse response = client.send("4;x=y\r\ndefg\r\n0\r\nTrailer: t\r\n\r\n").read();
            assertThat(response.bodyText()).isEqualTo("abcdefg");
        }
    }

    @Test
    void closesAfterAnHttp10RequestWithoutKeepAlive() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse response = client.send("GET /ping HTTP/1.0\r\n\r\n").read();
            assertThat(response.bodyText()).isEqualTo("pong");
            assertThat(response.header("Connection")).isEqualTo("close");
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void keepsAnHttp10ConnectionThatAskedForKeepAlive() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse response = client.send("GET /ping HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").read();
            assertThat(response.header("Connection")).isEqualTo("keep-alive");
            assertThat(client.send("GET /ping HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").read().bodyText())
                .isEqualTo("pong");
        }
    }

    @Test
    void closesAfterAnsweringConnectionCloseAndIgnoresWhatFollows() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /seq/1 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\nGET /seq/2 HTTP/1.1\r\nHost: a\r\n\r\n");
            RawResponse response = client.read();
            assertThat(response.bodyText()).isEqualTo("1");
            assertThat(response.header("Connection")).isEqualTo("close");
            assertThat(client.closedByServer()).isTrue();
        }
    }

    @Test
    void answersAnUnknownPathWith404AndAWrongMethodWith405AndAllow() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse missing = client.send("GET /nowhere HTTP/1.1\r\nHost: a\r\n\r\n").read();
            assertThat(missing.status()).isEqualTo(404);
            assertThat(missing.bodyText()).contains("\"error\":\"not_found\"");
            RawResponse wrongMethod = client.send("DELETE /ping HTTP/1.1\r\nHost: a\r\n\r\n").read();
            assertThat(wrongMethod.status()).isEqualTo(405);
            assertThat(wrongMethod.header("Allow")).isEqualTo("GET, HEAD");
            RawResponse wrongOnEcho = client.send("GET /echo HTTP/1.1\r\nHost: a\r\n\r\n").read();
            assertThat(wrongOnEcho.header("Allow")).isEqualTo("POST");
        }
    }

    @Test
    void routesAnAbsoluteFormTargetOnItsPath() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse response = client.send("GET http://example.com/seq/7 HTTP/1.1\r\nHost: example.com\r\n\r\n").read();
            assertThat(response.bodyText()).isEqualTo("7");
        }
    }

    @Test
    void answersOptionsAsteriskWithEveryRoutedMethod() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse response = client.send("OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n").read();
            assertThat(response.status()).isEqualTo(204);
            assertThat(response.header("Allow")).isEqualTo("GET, HEAD, POST");
            assertThat(response.header("Content-Length")).isNull();
        }
    }

    @Test
    void answersAFailingHandlerWith500AndKeepsTheConnection() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse response = client.send("GET /fail HTTP/1.1\r\nHost: a\r\n\r\n").read();
            assertThat(response.status()).isEqualTo(500);
            assertThat(response.bodyText()).doesNotContain("boom").doesNotContain("Exception");
            assertThat(client.send("GET /ping HTTP/1.1\r\nHost: a\r\n\r\n").read().status()).isEqualTo(200);
        }
    }

    @Test
    void answersAHandlerThatThrowsALinkageOrStackOverflowErrorWith500AndKeepsTheConnection() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            for (String path : new String[] {"/fail/overflow", "/fail/linkage"}) {
                RawResponse response = client.send("GET " + path + " HTTP/1.1\r\nHost: a\r\n\r\n").read();
                assertThat(response.status()).as(path).isEqualTo(500);
                assertThat(response.bodyText()).as(path).doesNotContain("Error").doesNotContain("Gone");
            }
            assertThat(client.send("GET /ping HTTP/1.1\r\nHost: a\r\n\r\n").read().status()).isEqualTo(200);
        }
    }

    @Test
    void exportsResponseCountsAsPrometheusText() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /ping HTTP/1.1\r\nHost: a\r\n\r\n").read();
            client.send("GET /nowhere HTTP/1.1\r\nHost: a\r\n\r\n").read();
            RawResponse metrics = client.send("GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n").read();
            assertThat(metrics.header("Content-Type")).startsWith("text/plain; version=0.0.4");
            assertThat(metrics.bodyText())
                .contains("hotpath_http_responses_total{status=\"200\"} 1")
                .contains("hotpath_http_responses_total{status=\"404\"} 1")
                .contains("hotpath_http_connections_open 1");
        }
    }
}
