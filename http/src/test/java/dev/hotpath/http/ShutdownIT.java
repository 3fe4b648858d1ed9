package dev.hotpath.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class ShutdownIT {

    @Test
    void drainsInFlightRequestsClosesIdleConnectionsAndStopsAccepting() throws Exception {
        TestServer server = new TestServer();
        int port = server.port();
        try (RawHttpClient busy = RawHttpClient.connect(port); RawHttpClient idle = RawHttpClient.connect(port)) {
            assertThat(idle.send("GET /ping HTTP/1.1\r\nHost: a\r\n\r\n").read().status()).isEqualTo(200);
            busy.send("GET /slow/1 HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(server.nextEvent()).isEqualTo("parked 1");

            CompletableFuture<Boolean> closed = CompletableFuture.supplyAsync(
                () -> server.server.close(Duration.ofSeconds(20)));

            assertThat(idle.closedByServer()).isTrue();
            assertThatThrownBy(() -> RawHttpClient.connect(port).close()).hasRootCauseInstanceOf(java.net.ConnectException.class);
            assertThat(closed).isNotDone();

            server.complete("1");
            RawResponse response = busy.read();
            assertThat(response.bodyText()).isEqualTo("slow 1");
            assertThat(response.header("Connection")).isNull();
            assertThat(busy.closedByServer()).isTrue();
            assertThat(closed.get()).isTrue();
        }
    }

    @Test
    void closesWhatIsLeftWhenTheGracePeriodEnds() throws Exception {
        TestServer server = new TestServer();
        try (RawHttpClient stuck = RawHttpClient.connect(server.port())) {
            stuck.send("GET /slow/1 HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(server.nextEvent()).isEqualTo("parked 1");

            assertThat(server.server.close(Duration.ofMillis(50))).isFalse();
            assertThat(stuck.closedByServer()).isTrue();
        }
    }
}
