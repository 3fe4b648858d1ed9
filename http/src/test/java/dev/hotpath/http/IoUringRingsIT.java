package dev.hotpath.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hotpath.http.internal.Transports;
import io.netty.channel.uring.IoUring;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The io_uring rings the kernel actually made for the server's event loops, read back from
 * {@code /proc/self/fdinfo}: their completion queues must be sized by the process's open-file limit
 * ({@link Transports#completionQueueEntries}), not left at Netty's default.
 */
class IoUringRingsIT {
    private static final Routes ROUTES = Routes.builder().get("/ping", r -> Response.text(200, "pong")).build();

    /** The expected size comes from the formula; that it is not Netty's default shows the server applied it. */
    @Test
    void givesEveryEventLoopTheRingTheOpenFileLimitCallsFor() throws IOException {
        ServerConfig config = ServerConfig.of(new InetSocketAddress("127.0.0.1", 0))
            .withTransport(Transport.IO_URING).withEventLoops(2);
        if (!IoUring.isAvailable()) {
            assertThatThrownBy(() -> HttpServer.start(config, ROUTES)).isInstanceOf(IllegalStateException.class);
            return;
        }
        int expected = Transports.completionQueueEntries(Transports.openFileLimit());
        assertThat(expected).as("this test needs an open-file limit above 4,096 (it has %d) to tell the ring from "
            + "Netty's default", Transports.openFileLimit()).isGreaterThan(4_096);
        Map<String, Integer> before = ioUringCompletionQueues();
        try (HttpServer server = HttpServer.start(config, ROUTES)) {
            Map<String, Integer> after = ioUringCompletionQueues();
            after.keySet().removeAll(before.keySet());

            assertThat(List.copyOf(after.values())).as("completion queue entries of the server's rings, by fd: " + after)
                .isEqualTo(List.of(expected, expected));
        }
    }

    /** Completion-queue entries of every io_uring ring this process holds, by file descriptor. */
    private static Map<String, Integer> ioUringCompletionQueues() throws IOException {
        Map<String, Integer> queues = new HashMap<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                if (isIoUring(fd)) {
                    queues.put(fd.getFileName().toString(), completionQueueEntries(fd.getFileName().toString()));
                }
            }
        }
        return queues;
    }

    private static boolean isIoUring(Path fd) {
        try {
            return Files.readSymbolicLink(fd).toString().equals("anon_inode:[io_uring]");
        } catch (IOException e) {
            return false; // closed since it was listed (the listing's own descriptor, for one)
        }
    }

    private static int completionQueueEntries(String fd) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/fdinfo", fd))) {
            if (line.startsWith("CqMask:")) {
                return Integer.decode(line.substring("CqMask:".length()).trim()) + 1;
            }
        }
        throw new AssertionError("no CqMask in the fdinfo of io_uring fd " + fd);
    }
}
