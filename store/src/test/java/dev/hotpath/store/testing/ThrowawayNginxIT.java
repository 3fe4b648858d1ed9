package dev.hotpath.store.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class ThrowawayNginxIT {
    /** The least nginx runs as any user: temp paths in its prefix, no access log. */
    private static String answering(String body, int port) {
        return """
            events {}
            http {
                client_body_temp_path client_body_temp; proxy_temp_path proxy_temp; fastcgi_temp_path fastcgi_temp;
                uwsgi_temp_path uwsgi_temp; scgi_temp_path scgi_temp;
                access_log off;
                server {
                    listen 127.0.0.1:%d;
                    location / { return 200 "%s"; }
                }
            }
            """.formatted(port, body);
    }

    @Test
    void servesTheConfigurationItWasGivenAndLeavesNothingBehind() throws Exception {
        ThrowawayNginx nginx = ThrowawayNginx.launch(port -> answering("from the test", port));
        List<ProcessHandle> processes;
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), nginx.port())) {
            socket.getOutputStream().write("GET /any HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertThat(response).startsWith("HTTP/1.1 200 OK\r\n").endsWith("\r\n\r\nfrom the test");
            ProcessHandle master = ProcessHandle.of(Long.parseLong(Files.readString(nginx.directory().resolve("nginx.pid"))
                .strip())).orElseThrow();
            processes = Stream.concat(Stream.of(master), master.children()).toList();
            assertThat(processes).as("master and workers").hasSizeGreaterThanOrEqualTo(2);
        } finally {
            nginx.close();
        }

        assertThat(Files.exists(nginx.directory())).isFalse();
        assertThat(processes).noneMatch(ProcessHandle::isAlive);
        assertThatThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), nginx.port()).close())
            .isInstanceOf(IOException.class);
    }

    @Test
    void refusesAConfigurationNginxRejects() {
        assertThatThrownBy(() -> ThrowawayNginx.launch(port -> "events {} http { nonsense; }"))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("nginx did not start")
            .hasMessageContaining("unknown directive \"nonsense\"");
    }
}
