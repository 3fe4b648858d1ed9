package dev.hotpath.store.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

class ThrowawayRedisIT {
    @Test
    void sharedServerKeepsNothingAfterFlushAll() {
        ThrowawayRedis server = ThrowawayRedis.shared();
        assertThat(server.command("SET fixture-key 1")).isEqualTo("+OK");

        server.flushAll();

        assertThat(server.command("EXISTS fixture-key")).isEqualTo(":0");
        assertThat(server.command("CONFIG GET save")).isEqualTo("*2");
    }

    @Test
    void comesBackEmptyOnTheSamePortAfterAKill() {
        try (ThrowawayRedis server = ThrowawayRedis.launch()) {
            int port = server.port();
            server.command("SET survivor 1");

            server.kill();
            assertThatThrownBy(() -> server.command("PING")).isInstanceOf(UncheckedIOException.class);
            server.restart();

            assertThat(server.port()).isEqualTo(port);
            assertThat(server.command("EXISTS survivor")).isEqualTo(":0");
        }
    }

    @Test
    void aPausedServerLeavesCommandsUnansweredUntilResumed() throws IOException {
        try (ThrowawayRedis server = ThrowawayRedis.launch();
             Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            server.pause();
            socket.setSoTimeout(200);
            socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThatThrownBy(() -> socket.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);

            server.resume();
            socket.setSoTimeout(0);

            assertThat(socket.getInputStream().read()).isEqualTo('+');
        }
    }

    @Test
    void closeKillsTheServerAndRemovesItsDirectory() {
        ThrowawayRedis server = ThrowawayRedis.launch();
        assertThat(server.directory()).isDirectory();

        server.close();

        assertThat(Files.exists(server.directory())).isFalse();
        assertThatThrownBy(() -> server.command("PING")).isInstanceOf(UncheckedIOException.class);
    }
}
