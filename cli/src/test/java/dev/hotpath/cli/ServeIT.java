package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.testing.RawHttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hotpath serve users} as a process: the fat jar started as users start it, stopped by signal. */
class ServeIT {
    @TempDir
    Path dir;

    @Test
    void servesUntilSigtermThenClosesConnectionsAndExitsZero() throws Exception {
        try (ServerProcess server = ServerProcess.start(dir.resolve("serve.log"), "users", "--bind", "127.0.0.1:0");
             RawHttpClient client = RawHttpClient.connect(server.awaitPort())) {
            assertThat(client.send("GET /ping HTTP/1.1\r\nHost: a\r\n\r\n").read().bodyText()).isEqualTo("pong");

            server.process.destroy(); // SIGTERM

            assertThat(client.closedByServer()).isTrue();
            assertThat(server.process.waitFor(10, TimeUnit.SECONDS)).as("exited within 10 s").isTrue();
            assertThat(server.process.exitValue()).isZero();
            assertThat(server.output()).contains("hotpath: draining", "hotpath: stopped");
        }
    }

    /** picocli's model of a command and its Java 5 classes, which no AOT cache holds, stay out of a server. */
    @Test
    void readsAPlainServeLineWithoutLoadingPicocli() throws Exception {
        Path classes = dir.resolve("classes.log");
        try (ServerProcess server = ServerProcess.start(dir.resolve("serve.log"),
            List.of("-Xlog:class+load:file=" + classes), "users", "--bind", "127.0.0.1:0", "--event-loops=1")) {
            server.awaitPort();
            assertThat(Files.readString(classes)).contains("dev.hotpath.cli.ServeFlags ")
                .doesNotContain("picocli.CommandLine ");
        }
    }

    /** Under G1, which gives back the regions a collection empties (the JVM's pick on this two-core machine). */
    @Test
    void collectsStartUpGarbageOnceBeforeSayingWhereItListens() throws Exception {
        String output = startUpLog("-XX:+UseG1GC");
        int collection = output.indexOf("Pause Full (System.gc())");
        assertThat(collection).as("a collection asked for by the server, in:%n%s", output).isNotNegative();
        assertThat(output.indexOf("Pause Full (System.gc())", collection + 1)).as("only one").isNegative();
        assertThat(collection).isLessThan(output.indexOf("listening on"));
    }

    /** Serial gives nothing back, so a collection would only copy what is live onto pages no one had touched. */
    @Test
    void leavesStartUpGarbageWhereItIsUnderTheSerialCollector() throws Exception {
        String output = startUpLog("-XX:+UseSerialGC");
        assertThat(output).as("the collector in use").contains("Using Serial");
        assertThat(output).contains("listening on").doesNotContain("System.gc()");
    }

    /** What {@code serve users} prints, its collections logged, until it listens, under {@code collector}. */
    private String startUpLog(String collector) throws Exception {
        try (ServerProcess server = ServerProcess.start(dir.resolve("serve.log"), List.of(collector, "-Xlog:gc:stdout"),
            "users", "--bind", "127.0.0.1:0")) {
            server.awaitPort();
            return server.output();
        }
    }
}
