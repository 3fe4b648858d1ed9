package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.apps.messages.MessagesApp;
import dev.hotpath.apps.messages.MessagesConfig;
import dev.hotpath.http.HttpServer;
import dev.hotpath.http.ServerConfig;
import dev.hotpath.store.Durability;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hotpath bench messages} from the command line against the real app: PASS on /message, FAIL on /message-fast. */
class BenchMessagesIT {
    @TempDir
    Path dir;

    private int bench(int port, String path, StringWriter out) {
        return Main.run(new String[] {"bench", "messages", "--target", "http://127.0.0.1:" + port, "--path", path,
            "--connections", "2", "--duration", "300ms", "--results", dir.resolve("results").toString()},
            new PrintWriter(out, true), new PrintWriter(new StringWriter(), true));
    }

    @Test
    void passesOnTheDirectPathAndFailsOnTheFastPathWithoutAStream() {
        PrometheusRegistry registry = new PrometheusRegistry();
        MessagesApp app = MessagesApp.open(new MessagesConfig(dir.resolve("data"), Durability.NORMAL,
            MessagesConfig.MAX_BATCH, Clock.systemUTC()), registry);
        HttpServer server = HttpServer.start(ServerConfig.of(new InetSocketAddress("127.0.0.1", 0)), app.routes());
        try {
            StringWriter direct = new StringWriter();
            assertThat(bench(server.port(), "/message", direct)).as(direct.toString()).isZero();
            assertThat(direct.toString()).contains("PASS: messages");
            StringWriter fast = new StringWriter();
            assertThat(bench(server.port(), "/message-fast", fast)).as(fast.toString()).isEqualTo(1);
            assertThat(fast.toString()).contains("FAIL");
        } finally {
            server.close(Duration.ofSeconds(5));
            app.close();
        }
    }
}
