package dev.hotpath.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hotpath.http.testing.RawHttpClient;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.uring.IoUring;
import java.net.InetSocketAddress;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/** Every transport serves the same bytes; AUTO picks io_uring, then epoll, then NIO. */
class TransportsIT {
    private static final Routes ROUTES = Routes.builder().get("/seq/{n}", r -> Response.text(200, r.pathParam(0))).build();

    @ParameterizedTest
    @EnumSource(Transport.class)
    void servesPipelinedRequestsOnEveryTransportThatLoadsAndRefusesOneThatDoesNot(Transport transport) {
        ServerConfig config = ServerConfig.of(new InetSocketAddress("127.0.0.1", 0)).withTransport(transport);
        if (!loads(transport)) {
            assertThatThrownBy(() -> HttpServer.start(config, ROUTES))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("not available");
            return;
        }
        try (HttpServer server = HttpServer.start(config, ROUTES);
             RawHttpClient client = RawHttpClient.connect(server.port())) {
            assertThat(server.transport()).isEqualTo(transport == Transport.AUTO ? expectedAuto() : transport);
            client.send("GET /seq/1 HTTP/1.1\r\nHost: a\r\n\r\nGET /seq/2 HTTP/1.1\r\nHost: a\r\n\r\n");
            assertThat(client.read().bodyText()).isEqualTo("1");
            assertThat(client.read().bodyText()).isEqualTo("2");
        }
    }

    @Test
    void autoPrefersIoUringThenEpollThenNio() {
        try (HttpServer server = HttpServer.start(ServerConfig.of(new InetSocketAddress("127.0.0.1", 0)), ROUTES)) {
            assertThat(server.transport()).isEqualTo(expectedAuto());
        }
    }

    @Test
    void refusesAnAddressInUseWithAMessageThatNamesIt() {
        try (HttpServer first = HttpServer.start(ServerConfig.of(new InetSocketAddress("127.0.0.1", 0)), ROUTES)) {
            InetSocketAddress taken = first.address();
            assertThatThrownBy(() -> HttpServer.start(ServerConfig.of(taken), ROUTES))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot listen on " + taken);
        }
    }

    private static boolean loads(Transport transport) {
        return switch (transport) {
            case AUTO, NIO -> true;
            case IO_URING -> IoUring.isAvailable();
            case EPOLL -> Epoll.isAvailable();
        };
    }

    private static Transport expectedAuto() {
        return IoUring.isAvailable() ? Transport.IO_URING : Epoll.isAvailable() ? Transport.EPOLL : Transport.NIO;
    }
}
