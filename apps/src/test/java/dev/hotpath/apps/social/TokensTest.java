package dev.hotpath.apps.social;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class TokensTest {
    @Test
    void mintsAnHs256TokenWithTheContractsPayload() throws Exception {
        byte[] secret = "twelve-dollar-challenge".getBytes(StandardCharsets.UTF_8);
        String token = new Tokens(secret).mint(42, "happy_otter_42", 1_796_000_000L, 1_796_086_400L);
        String[] parts = token.split("\\.");
        assertThat(parts).hasSize(3);
        assertThat(token).doesNotContain("=");
        Base64.Decoder url = Base64.getUrlDecoder();
        assertThat(new String(url.decode(parts[0]), StandardCharsets.UTF_8)).isEqualTo("{\"alg\":\"HS256\",\"typ\":\"JWT\"}");
        assertThat(new String(url.decode(parts[1]), StandardCharsets.UTF_8))
            .isEqualTo("{\"sub\":\"42\",\"username\":\"happy_otter_42\",\"iat\":1796000000,\"exp\":1796086400}");
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret, "HmacSHA256"));
        byte[] expected = mac.doFinal((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
        assertThat(url.decode(parts[2])).isEqualTo(expected);
    }

    @Test
    void escapesAUsernameIntoValidJson() {
        assertThat(Tokens.jsonString("a\"b\\c\u0001")).isEqualTo("\"a\\\"b\\\\c\\u0001\"");
    }
}
