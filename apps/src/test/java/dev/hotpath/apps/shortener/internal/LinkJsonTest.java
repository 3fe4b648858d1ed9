package dev.hotpath.apps.shortener.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LinkJsonTest {
    @Test
    void anExpiryMustBeAnRfc3339DateTimeWithSecondsAndAFullOffset() throws LinkJson.Invalid {
        for (String expiry : new String[] {"2030-01-01T00:00Z", "2030-01-01T00:00:00.Z", "2030-01-01T00:00:00+01",
            "2030-01-01T00:00:00", "2030-01-01 00:00:00Z", "2030-1-01T00:00:00Z", "2030-01-01T00:00:00+01:00:00"}) {
            assertThatThrownBy(() -> LinkJson.parseCreate(create(expiry))).as(expiry)
                .isInstanceOfSatisfying(LinkJson.Invalid.class, e -> assertThat(e.code).isEqualTo("invalid_expiry"));
        }
        assertThat(LinkJson.parseCreate(create("2030-01-01t01:00:00.5+01:00")).expiresAt())
            .isEqualTo(Instant.parse("2030-01-01T00:00:00.5Z"));
        assertThat(LinkJson.parseCreate(create("2030-01-01T00:00:00z")).expiresAt())
            .isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
    }

    private static byte[] create(String expiry) {
        return ("{\"url\":\"https://a.example/\",\"expires_at\":\"" + expiry + "\"}").getBytes(StandardCharsets.UTF_8);
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
