package dev.hotpath.apps.social;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class TokenVerifierTest {
    private static final byte[] SECRET = "twelve-dollar-challenge".getBytes(StandardCharsets.UTF_8);
    private static final long NOW = 1_796_000_000L;
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private final TokenVerifier verifier = new TokenVerifier(SECRET);

    /** A token with this header and payload JSON, signed with {@code secret}. */
    private static String token(String header, String payload, byte[] secret) throws Exception {
        String signed = B64.encodeToString(header.getBytes(StandardCharsets.UTF_8)) + "."
            + B64.encodeToString(payload.getBytes(StandardCharsets.UTF_8));
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret, "HmacSHA256"));
        return signed + "." + B64.encodeToString(mac.doFinal(signed.getBytes(StandardCharsets.US_ASCII)));
    }

    private static String payload(String sub, String username, String exp) {
        return "{\"sub\":" + sub + ",\"username\":" + username + ",\"iat\":1,\"exp\":" + exp + "}";
    }

    private static final String HS256 = "{\"alg\":\"HS256\",\"typ\":\"JWT\"}";

    @Test
    void acceptsATokenMintedForAUser() {
        String token = new Tokens(SECRET).mint(42, "happy_otter_42", NOW - 10, NOW + 3600);
        TokenVerifier.Result result = verifier.verify("Bearer " + token, NOW);
        assertThat(result.verified()).isTrue();
        assertThat(result.userId()).isEqualTo(42);
        assertThat(result.username()).isEqualTo("happy_otter_42");
    }

    @Test
    void matchesTheSchemeCaseInsensitivelyAsRfc9110Asks() {
        String token = new Tokens(SECRET).mint(42, "happy_otter_42", NOW - 10, NOW + 3600);
        assertThat(verifier.verify("bearer " + token, NOW).verified()).isTrue();
        assertThat(verifier.verify("BEARER  " + token, NOW).verified()).isTrue();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "                 | MISSING",
        "Basic abc        | MISSING",
        "bearer x.y.z     | INVALID",
        "Bearer a b.c.d   | INVALID",
        "Bearer           | MISSING",
        "Bearer abc       | INVALID",
        "Bearer a.b       | INVALID",
        "Bearer a.b.c.d   | INVALID",
        "Bearer ..        | INVALID",
        "Bearer !!.??.**  | INVALID",
    })
    void refusesHeadersThatCarryNoToken(String header, TokenVerifier.Refusal refusal) {
        assertThat(verifier.verify(header, NOW).refusal()).isEqualTo(refusal);
    }

    @Test
    void refusesBadSignaturesAlgorithmsAndExpiry() throws Exception {
        String good = payload("\"42\"", "\"u\"", Long.toString(NOW + 60));
        assertThat(refusal(token(HS256, good, "other-secret".getBytes(StandardCharsets.UTF_8)))).isEqualTo(TokenVerifier.Refusal.INVALID);
        assertThat(refusal(token("{\"alg\":\"none\"}", good, SECRET))).isEqualTo(TokenVerifier.Refusal.INVALID);
        assertThat(refusal(token("{\"alg\":\"HS512\"}", good, SECRET))).isEqualTo(TokenVerifier.Refusal.INVALID);
        assertThat(refusal(token("{\"typ\":\"JWT\"}", good, SECRET))).isEqualTo(TokenVerifier.Refusal.INVALID);
        String unsigned = B64.encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8)) + "."
            + B64.encodeToString(good.getBytes(StandardCharsets.UTF_8)) + ".";
        assertThat(verifier.verify("Bearer " + unsigned, NOW).refusal()).isEqualTo(TokenVerifier.Refusal.INVALID);
        String valid = token(HS256, good, SECRET);
        String tampered = valid.substring(0, valid.indexOf('.') + 1)
            + B64.encodeToString(payload("\"1\"", "\"u\"", Long.toString(NOW + 60)).getBytes(StandardCharsets.UTF_8))
            + valid.substring(valid.lastIndexOf('.'));
        assertThat(refusal(tampered)).isEqualTo(TokenVerifier.Refusal.INVALID);
        assertThat(refusal(token(HS256, payload("\"42\"", "\"u\"", Long.toString(NOW)), SECRET))).isEqualTo(TokenVerifier.Refusal.INVALID);
        assertThat(refusal(token(HS256, "{\"sub\":\"42\",\"username\":\"u\"}", SECRET))).isEqualTo(TokenVerifier.Refusal.INVALID);
        assertThat(refusal(token(HS256, "not json", SECRET))).isEqualTo(TokenVerifier.Refusal.INVALID);
        assertThat(refusal(token(HS256, good, SECRET))).isNull();
        assertThat(refusal(token("{\"typ\":\"JWT\",\"alg\":\"HS256\"}", good, SECRET))).as("a header written otherwise").isNull();
        assertThat(refusal(token("{\"alg\":\"HS256\"}", good, SECRET))).isNull();
        assertThat(refusal(token("[\"alg\",\"HS256\"]", good, SECRET))).isEqualTo(TokenVerifier.Refusal.INVALID);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "1     | INVALID",
        "60    | INVALID",
        "0     | ",
        "-60   | ",
    })
    void honoursNotBeforeAsRfc7519Asks(long secondsFromNow, TokenVerifier.Refusal refusal) throws Exception {
        assertThat(refusal(token(HS256, withNotBefore(Long.toString(NOW + secondsFromNow)), SECRET))).isEqualTo(refusal);
    }

    @Test
    void refusesANotBeforeThatIsNotADateOrAFractionOfASecondAhead() throws Exception {
        assertThat(refusal(token(HS256, withNotBefore("\"soon\""), SECRET))).isEqualTo(TokenVerifier.Refusal.INVALID);
        assertThat(refusal(token(HS256, withNotBefore(NOW + ".5"), SECRET))).isEqualTo(TokenVerifier.Refusal.INVALID);
        assertThat(refusal(token(HS256, withNotBefore((NOW - 1) + ".5"), SECRET))).isNull();
    }

    private static String withNotBefore(String nbf) {
        return "{\"sub\":\"42\",\"username\":\"u\",\"nbf\":" + nbf + ",\"exp\":" + (NOW + 3600) + "}";
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "\"0\"   | \"u\"",
        "\"-1\"  | \"u\"",
        "\"abc\" | \"u\"",
        "\"1.5\" | \"u\"",
        "\"\"    | \"u\"",
        "42      | \"u\"",
        "null    | \"u\"",
        "\"42\"  | 7",
        "\"42\"  | null",
    })
    void refusesAPayloadWithoutAPositiveIntegerSubOrAStringUsername(String sub, String username) throws Exception {
        assertThat(refusal(token(HS256, payload(sub, username, Long.toString(NOW + 60)), SECRET)))
            .isEqualTo(TokenVerifier.Refusal.BAD_PAYLOAD);
    }

    private TokenVerifier.Refusal refusal(String token) {
        return verifier.verify("Bearer " + token, NOW).refusal();
    }
}
