package dev.hotpath.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hotpath.http.testing.RawHttpClient;
import dev.hotpath.http.testing.RawResponse;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class NotFoundIT {
    private static RawResponse get(Routes routes, String path) {
        HttpServer server = HttpServer.start(ServerConfig.of(new InetSocketAddress("127.0.0.1", 0)).withEventLoops(1), routes);
        try (RawHttpClient client = RawHttpClient.connect(server.port())) {
            client.send("GET " + path + " HTTP/1.1\r\nHost: a\r\n\r\n");
            return client.read();
        } finally {
            server.close(Duration.ofSeconds(5));
        }
    }

    @Test
    void answersAnUnknownPathWithTheEnginesBodyOrTheAppsOwn() {
        Routes.Builder routes = Routes.builder().get("/known", request -> Response.text(200, "known"));
        RawResponse engine = get(routes.build(), "/unknown");
        assertThat(engine.status()).isEqualTo(404);
        assertThat(engine.bodyText()).isEqualTo("{\"error\":\"not_found\",\"message\":\"no route for this path\"}");

        RawResponse app = get(routes.notFound(Response.json(404, "{\"error\":\"not found\"}")).build(), "/unknown/deeper");
        assertThat(app.status()).isEqualTo(404);
        assertThat(app.bodyText()).isEqualTo("{\"error\":\"not found\"}");
    }

    @Test
    void refusesAnAnswerToUnknownPathsThatIsNotA404() {
        assertThatThrownBy(() -> Routes.builder().notFound(Response.text(200, "ok"))).isInstanceOf(IllegalArgumentException.class);
    }
}
