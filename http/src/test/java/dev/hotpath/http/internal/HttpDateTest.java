package dev.hotpath.http.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hotpath.http.testing.MutableClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
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
}
