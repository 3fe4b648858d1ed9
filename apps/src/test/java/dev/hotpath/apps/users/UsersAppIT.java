package dev.hotpath.apps.users;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.HttpServer;
import dev.hotpath.http.ServerConfig;
import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class UsersAppIT {
    UsersAppIT() throws java.sql.SQLException {
    }

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final HttpServer server = HttpServer.start(
        ServerConfig.of(new InetSocketAddress("127.0.0.1", 0)).withMetrics(registry), UsersApp.open(UsersConfig.inMemory(), registry).routes());

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void answersPingWithPongAsPlainText() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse response = client.send("GET /ping HTTP/1.1\r\nHost: a\r\n\r\n").read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("Content-Type")).isEqualTo("text/plain");
            assertThat(response.bodyText()).isEqualTo("pong");
        }
    }

    @Test
    void echoesTheBodyWithItsContentType() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse response = client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
                + "Content-Length: 10\r\n\r\n{\"a\":\"b\"} ").read();
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.header("Content-Type")).isEqualTo("application/json");
            assertThat(response.bodyText()).isEqualTo("{\"a\":\"b\"} ");
        }
    }

    @Test
    void echoesABodyWithoutContentTypeWithoutOne() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse response = client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc").read();
            assertThat(response.header("Content-Type")).isNull();
            assertThat(response.bodyText()).isEqualTo("abc");
        }
    }

    @Test
    void refusesAnEchoBodyOverSixtyFourKibibytes() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            RawResponse response = client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: "
                + (UsersApp.MAX_ECHO_BYTES + 1) + "\r\n\r\n").read();
            assertThat(response.status()).isEqualTo(413);
        }
    }

    @Test
    void servesMetrics() {
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET /ping HTTP/1.1\r\nHost: a\r\n\r\n").read();
            assertThat(client.send("GET /metrics HTTP/1.1\r\nHost: a\r\n\r\n").read().bodyText())
                .contains("hotpath_http_responses_total{status=\"200\"} 1");
        }
    }
}
