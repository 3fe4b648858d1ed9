package dev.hotpath.apps.shortener.internal;

import dev.hotpath.apps.shortener.ApiKeys;
import dev.hotpath.http.BearerToken;
import dev.hotpath.http.HeaderName;
import dev.hotpath.http.Request;
import java.nio.charset.StandardCharsets;

/**
 * Whether a request carries an active API key as {@code Authorization: Bearer <key>} (RFC 6750, read
 * by {@link BearerToken}). A header that is no well-formed bearer credential is refused without a
 * look-up; a token is checked by {@link ApiKeys#verify}, in constant time, at the cost of one SHA-256.
 */
final class ApiKeyAuth {
    private final ApiKeys keys;

    ApiKeyAuth(ApiKeys keys) {
        this.keys = keys;
    }

    boolean authorized(Request request) {
        String token = BearerToken.parse(request.header(HeaderName.AUTHORIZATION));
        return token != null && keys.verify(token.getBytes(StandardCharsets.ISO_8859_1));
    }
}
