package dev.hotpath.apps.shortener.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LinkJsonTest {
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
