package dev.hotpath.http.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hotpath.http.testing.MutableClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class HttpDateTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-06T15:40:07.250Z"));
    private final HttpDate date = new HttpDate(clock);

    private String line(int status) {
        return new String(date.statusLine(status), StandardCharsets.US_ASCII);
    }

    @Test
    void givesEachStatusItsLineAndTheDateOfTheLastRefresh() {
        assertThat(line(200)).isEqualTo("HTTP/1.1 200 OK\r\nDate: Sun, 06 Dec 2026 15:40:07 GMT\r\n");
        assertThat(line(404)).isEqualTo("HTTP/1.1 404 Not Found\r\nDate: Sun, 06 Dec 2026 15:40:07 GMT\r\n");
        assertThat(line(599)).isEqualTo("HTTP/1.1 599 \r\nDate: Sun, 06 Dec 2026 15:40:07 GMT\r\n");
    }

    /** The hand-written date against java.time's formatter of the same IMF-fixdate pattern, as the oracle. */
    @Test
    void writesTheImfFixdateOfEverySecondAsJavaTimeDoes() {
        DateTimeFormatter oracle = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);
        List<Long> seconds = new ArrayList<>(List.of(0L, 59L, 86_399L, 86_400L,
            Instant.parse("2000-02-29T23:59:59Z").getEpochSecond(), Instant.parse("2024-12-31T23:59:59Z").getEpochSecond(),
            Instant.parse("2025-01-01T00:00:00Z").getEpochSecond(), Instant.parse("9999-12-31T23:59:59Z").getEpochSecond(),
            Instant.parse("1994-11-06T08:49:37Z").getEpochSecond()));
        Random random = new Random(20261206);
        for (int i = 0; i < 10_000; i++) {
            seconds.add(random.nextLong(Instant.parse("9999-12-31T23:59:59Z").getEpochSecond()));
        }
        for (long second : seconds) {
            assertThat(new String(HttpDate.dateLine(second), StandardCharsets.US_ASCII))
                .as("second %d", second).isEqualTo("Date: " + oracle.format(Instant.ofEpochSecond(second)) + "\r\n");
        }
        assertThat(new String(HttpDate.dateLine(784_111_777), StandardCharsets.US_ASCII)).isEqualTo("Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n");
    }

    @Test
    void buildsAStatusLineOnceASecond() {
        byte[] first = date.statusLine(201);
        assertThat(date.statusLine(201)).isSameAs(first);
        clock.advance(Duration.ofMillis(700));
        assertThat(date.statusLine(201)).as("no refresh yet").isSameAs(first);
        date.refresh();
        assertThat(date.statusLine(201)).isNotSameAs(first);
        assertThat(line(201)).isEqualTo("HTTP/1.1 201 Created\r\nDate: Sun, 06 Dec 2026 15:40:07 GMT\r\n");
        clock.advance(Duration.ofSeconds(1));
        date.refresh();
        assertThat(line(201)).isEqualTo("HTTP/1.1 201 Created\r\nDate: Sun, 06 Dec 2026 15:40:08 GMT\r\n");
    }

    @Test
    void refusesAStatusOutsideTheThreeDigitRange() {
        assertThatThrownBy(() -> date.statusLine(99)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> date.statusLine(600)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void readersOnOtherThreadsSeeOnlyWholeLinesWhileTheDateMoves() throws Exception {
        int refreshes = 2_000;
        AtomicBoolean done = new AtomicBoolean();
        List<Future<Integer>> readers = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(3)) {
            for (int status : new int[] {200, 201, 404}) {
                String start = "HTTP/1.1 " + status + " ";
                readers.add(threads.submit(() -> {
                    int reads = 0;
                    while (!done.get() || reads == 0) {
                        String line = new String(date.statusLine(status), StandardCharsets.US_ASCII);
                        assertThat(line).startsWith(start).matches("(?s).*\r\nDate: \\w{3}, \\d{2} \\w{3} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT\r\n");
                        reads++;
                    }
                    return reads;
                }));
            }
            for (int i = 0; i < refreshes; i++) {
                clock.advance(Duration.ofSeconds(1));
                date.refresh();
            }
            done.set(true);
            for (Future<Integer> reader : readers) {
                assertThat(reader.get()).isPositive();
            }
        }
        assertThat(line(200)).endsWith("Date: Sun, 06 Dec 2026 16:13:27 GMT\r\n");
    }
}
