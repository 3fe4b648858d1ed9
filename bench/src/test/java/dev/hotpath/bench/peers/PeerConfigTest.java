package dev.hotpath.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class PeerConfigTest {
    @Test
    void readsEveryOption() {
        PeerConfig config = PeerConfig.parse("vertx", "--port", "0", "--store", "sqlite", "--data", "/tmp/d",
            "--access-log", "/tmp/a.log", "--token", "t");

        assertThat(config).isEqualTo(new PeerConfig("vertx", 0, PeerConfig.Store.SQLITE, Path.of("/tmp/d"),
            Path.of("/tmp/a.log"), "t"));
    }

    @Test
    void defaultsToMemoryTheSuiteTokenAndNoAccessLog() {
        PeerConfig config = PeerConfig.parse("netty", "--port", "8080");

        assertThat(config).isEqualTo(new PeerConfig("netty", 8080, PeerConfig.Store.MEMORY, null, null,
            "test-token-aaaaaaaaaaaaaaaaaaaa"));
    }

    @Test
    void refusesSqliteForTheNettyPeer() {
        assertThatThrownBy(() -> PeerConfig.parse("netty", "--port", "0", "--store", "sqlite", "--data", "/tmp/d"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("netty peer runs S1-S3 only");
    }

    @Test
    void refusesWhatItCannotServe() {
        assertThatThrownBy(() -> PeerConfig.parse("jetty", "--port", "0")).hasMessageContaining("unknown peer 'jetty'");
        assertThatThrownBy(() -> PeerConfig.parse("vertx")).hasMessageContaining("--port is required");
        assertThatThrownBy(() -> PeerConfig.parse("vertx", "--port", "x")).hasMessageContaining("--port must be a number");
        assertThatThrownBy(() -> PeerConfig.parse("vertx", "--port", "70000")).hasMessageContaining("0 to 65535");
        assertThatThrownBy(() -> PeerConfig.parse("vertx", "--port", "0", "--store", "sqlite"))
            .hasMessageContaining("needs --data");
        assertThatThrownBy(() -> PeerConfig.parse("vertx", "--port", "0", "--data", "/tmp/d"))
            .hasMessageContaining("for --store sqlite only");
        assertThatThrownBy(() -> PeerConfig.parse("vertx", "--port", "0", "--store", "disk"))
            .hasMessageContaining("memory or sqlite");
        assertThatThrownBy(() -> PeerConfig.parse("vertx", "--port")).hasMessageContaining("--port needs a value");
        assertThatThrownBy(() -> PeerConfig.parse("vertx", "--port", "0", "--verbose", "1"))
            .hasMessageContaining("unknown option --verbose");
    }
}
