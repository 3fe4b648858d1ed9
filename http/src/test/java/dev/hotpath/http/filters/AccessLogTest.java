package dev.hotpath.http.filters;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.Exchange;
import dev.hotpath.http.Filter;
import dev.hotpath.http.HeaderName;
import dev.hotpath.http.Method;
import dev.hotpath.http.Request;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AccessLogTest {
    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(1_764_547_200_123L), ZoneOffset.UTC);

    @Test
    void writesOneLinePerRequestWithTheIdTheChainAnswered() {
        Recording channel = new Recording(null);
        AccessLog log = AccessLog.toChannel(channel, CLOCK);
        Filter filter = log.filter().get();
        filter.after(new Done(Method.GET, "/api/users/7", 200, "abc-1"));
        filter.after(new Done(Method.POST, "/api/users", 201, null));
        log.close();
        List<String> lines = channel.text().lines().toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).matches("1764547200123 abc-1 GET /api/users/7 200 \\d+");
        assertThat(lines.get(1)).matches("1764547200123 - POST /api/users 201 \\d+");
        assertThat(channel.closed).isTrue();
    }

    @Test
    void keepsEveryLineOfEveryLoopAcrossManyBuffers() {
        Recording channel = new Recording(null);
        AccessLog log = AccessLog.toChannel(channel, CLOCK);
        Filter first = log.filter().get();
        Filter second = log.filter().get();
        for (int i = 0; i < 20_000; i++) {
            (i % 2 == 0 ? first : second).after(new Done(Method.GET, "/n/" + i, 200, "id-" + i));
        }
        log.close();
        List<String> lines = channel.text().lines().filter(line -> !line.startsWith("#")).toList();
        assertThat(lines).hasSize(20_000 - (int) log.dropped());
        assertThat(lines).allMatch(line -> line.matches("1764547200123 id-(\\d+) GET /n/\\1 200 \\d+"));
        assertThat(droppedAsLogged(channel.text())).isEqualTo(log.dropped());
    }

    @Test
    void dropsAndCountsLinesWhileTheWriterIsStuckInsteadOfBlockingTheLoop() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        Recording channel = new Recording(release);
        AccessLog log = AccessLog.toChannel(channel, CLOCK);
        Filter filter = log.filter().get();
        Done request = new Done(Method.GET, "/" + "p".repeat(200), 200, "id");
        int logged = 0;
        while (!channel.entered.await(0, TimeUnit.MILLISECONDS)) {
            filter.after(request); // past half a buffer the writer takes it and blocks in write()
            logged++;
            if (logged % 100 == 0) {
                assertThat(channel.entered.await(20, TimeUnit.SECONDS)).as("the writer took the first buffer").isTrue();
            }
        }
        while (log.dropped() == 0) {
            filter.after(request);
            logged++;
        }
        release.countDown();
        log.close();
        assertThat(log.dropped()).isPositive();
        assertThat(droppedAsLogged(channel.text())).isEqualTo(log.dropped());
        assertThat(channel.text().lines().filter(line -> !line.startsWith("#"))).hasSize(logged - (int) log.dropped());
    }

    /** The sum of the drop counts the log wrote into itself. */
    private static long droppedAsLogged(String text) {
        return text.lines().filter(line -> line.startsWith("# access log: "))
            .mapToLong(line -> Long.parseLong(line.split(" ")[3])).sum();
    }

    /** A channel that keeps what is written; with a latch, its first write waits for it. */
    private static final class Recording implements WritableByteChannel {
        final CountDownLatch entered = new CountDownLatch(1);
        private final CountDownLatch release;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        volatile boolean closed;

        Recording(CountDownLatch release) {
            this.release = release;
        }

        @Override
        public synchronized int write(ByteBuffer source) throws IOException {
            entered.countDown();
            if (release != null) {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
            }
            int n = source.remaining();
            byte[] copy = new byte[n];
            source.get(copy);
            bytes.write(copy);
            return n;
        }

        synchronized String text() {
            return bytes.toString(StandardCharsets.US_ASCII);
        }

        @Override
        public boolean isOpen() {
            return !closed;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    /** An exchange whose answer was written. */
    private record Done(Method method, String path, int status, String requestId, long startedNanos) implements Exchange {
        Done(Method method, String path, int status, String requestId) {
            this(method, path, status, requestId, System.nanoTime());
        }

        @Override
        public Request request() {
            return null;
        }

        @Override
        public int pathLength() {
            return path.length();
        }

        @Override
        public int copyPath(byte[] into, int offset) {
            path.getBytes(0, path.length(), into, offset);
            return offset + path.length();
        }

        @Override
        public void addResponseHeader(HeaderName name, byte[] value, int from, int to) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int responseHeader(HeaderName name, byte[] into) {
            if (requestId == null || !name.toString().equals("X-Request-Id")) {
                return -1;
            }
            requestId.getBytes(0, requestId.length(), into, 0);
            return requestId.length();
        }
    }
}
