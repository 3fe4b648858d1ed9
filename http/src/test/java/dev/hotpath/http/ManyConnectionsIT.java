package dev.hotpath.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.testing.RawHttpClient;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ManyConnectionsIT {
    private static final int CONNECTIONS = 2_000;

    @Test
    void servesTwoThousandConcurrentKeepAliveConnections() {
        List<RawHttpClient> clients = new ArrayList<>();
        try (TestServer server = new TestServer()) {
            for (int i = 0; i < CONNECTIONS; i++) {
                clients.add(RawHttpClient.connect(server.port()));
            }
            for (int i = 0; i < CONNECTIONS; i++) {
                clients.get(i).send("GET /seq/" + i + " HTTP/1.1\r\nHost: a\r\n\r\n");
            }
            for (int i = 0; i < CONNECTIONS; i++) {
                assertThat(clients.get(i).read().bodyText()).isEqualTo(Integer.toString(i));
            }
            assertThat(server.server.openConnections()).isEqualTo(CONNECTIONS);
            for (int i = 0; i < CONNECTIONS; i++) {
                clients.get(i).send("GET /ping HTTP/1.1\r\nHost: a\r\n\r\n");
            }
            for (RawHttpClient client : clients) {
                assertThat(client.read().bodyText()).isEqualTo("pong");
            }
        } finally {
            clients.forEach(RawHttpClient::close);
        }
    }
}
