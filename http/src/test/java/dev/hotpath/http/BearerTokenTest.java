package dev.hotpath.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BearerTokenTest {
    @Test
    void readsTheTokenAfterTheScheme() {
        assertThat(BearerToken.parse("Bearer hp_abc123")).isEqualTo("hp_abc123");
    }

    @ParameterizedTest
    @ValueSource(strings = {"bearer tok", "BEARER tok", "bEaReR tok", "Bearer   tok"})
    void matchesTheSchemeCaseInsensitivelyAndAllowsSeveralSpaces(String header) {
        assertThat(BearerToken.parse(header)).isEqualTo("tok");
    }

    @Test
    void acceptsEveryB64TokenCharacterAndTrailingPadding() {
        String token = "aZ09-._~+/==";
        assertThat(BearerToken.parse("Bearer " + token)).isEqualTo(token);
        assertThat(BearerToken.parse("Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOjF9.c2ln"))
            .isEqualTo("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOjF9.c2ln");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Bearer", "Bearer ", "Bearer    ", "Bearertok", "Basic dXNlcjpwYXNz", "Bearer a b",
        "Bearer tok,", "Bearer ===", "Bearer a=b", "Bearer tok\t", "Bearer\ttok", "Bearer t\u00e9k"})
    void refusesWhatIsNotABearerCredential(String header) {
        assertThat(BearerToken.parse(header)).isNull();
    }

    @Test
    void tellsAMalformedBearerTokenFromAnotherScheme() {
        assertThat(BearerToken.namesTheScheme("bearer a b")).isTrue();
        assertThat(BearerToken.namesTheScheme("Bearer !!")).isTrue();
        assertThat(BearerToken.namesTheScheme("Bearer")).isFalse();
        assertThat(BearerToken.namesTheScheme("Bearertok")).isFalse();
        assertThat(BearerToken.namesTheScheme("Basic abc")).isFalse();
        assertThat(BearerToken.namesTheScheme(null)).isFalse();
    }

    @Test
    void anAbsentHeaderHasNoToken() {
        assertThat(BearerToken.parse(null)).isNull();
    }
}
