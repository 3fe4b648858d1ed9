package dev.hotpath.apps.shortener.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LinkJsonTest {
    private static final DateTimeFormatter REFERENCE =
        DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static final long SEED = 20261130L;

    @Test
    void timeWritesWhatTheJdkFormatterWritesForEveryWritableTime() {
        SplittableRandom random = new SplittableRandom(SEED);
        long end = LinkJson.END_OF_YEAR_9999.toEpochMilli();
        for (int i = 0; i < 10_000; i++) {
            // half across the whole range, half within a day of its edges, where carries happen
            long millis = i % 2 == 0 ? random.nextLong(end)
                : i % 4 == 1 ? random.nextLong(86_400_000L) : end - 1 - random.nextLong(86_400_000L);
            assertThat(LinkJson.time(millis)).as("time(%d)", millis).isEqualTo(REFERENCE.format(Instant.ofEpochMilli(millis)));
        }
    }

    @Test
    void timeAtTheEdgesOfItsRange() {
        assertThat(LinkJson.time(0)).isEqualTo("1970-01-01T00:00:00.000Z");
        assertThat(LinkJson.time(LinkJson.END_OF_YEAR_9999.toEpochMilli() - 1)).isEqualTo("9999-12-31T23:59:59.999Z");
        assertThat(LinkJson.time(1_796_011_200_123L)).isEqualTo("2026-11-30T04:00:00.123Z");
        assertThat(LinkJson.writable(0)).isTrue();
        assertThat(LinkJson.writable(LinkJson.END_OF_YEAR_9999.toEpochMilli() - 1)).isTrue();
        assertThat(LinkJson.writable(-1)).isFalse();
        assertThat(LinkJson.writable(LinkJson.END_OF_YEAR_9999.toEpochMilli())).isFalse();
    }

    @Test
    void anExpiryAtOrBeyondTheYear10000IsRefusedWhateverItsOffset() throws LinkJson.Invalid {
        for (String expiry : new String[] {"+10000-01-01T00:00:00Z", "9999-12-31T23:30:00-01:00"}) {
            byte[] body = ("{\"url\":\"https://a.example/\",\"expires_at\":\"" + expiry + "\"}").getBytes(StandardCharsets.UTF_8);
            assertThatThrownBy(() -> LinkJson.parseCreate(body))
                .isInstanceOfSatisfying(LinkJson.Invalid.class, e -> assertThat(e.code).isEqualTo("invalid_expiry"));
        }
        byte[] last = "{\"url\":\"https://a.example/\",\"expires_at\":\"9999-12-31T23:59:59.999Z\"}".getBytes(StandardCharsets.UTF_8);
        assertThat(LinkJson.parseCreate(last).expiresAt()).isEqualTo(Instant.parse("9999-12-31T23:59:59.999Z"));
    }
}
