package dev.hotpath.apps.shortener.internal;

import dev.hotpath.apps.shortener.ApiKeys;
import dev.hotpath.apps.shortener.KeyVerifier;
import dev.hotpath.http.BearerToken;
import dev.hotpath.http.HeaderName;
import dev.hotpath.http.Request;
import dev.hotpath.http.Response;
import java.nio.charset.StandardCharsets;

/**
 * Whether a request carries an active API key as {@code Authorization: Bearer <key>} (RFC 6750, read
 * by {@link BearerToken}). A header that is no well-formed bearer credential is refused without a
 * look-up; a token is checked by {@link KeyVerifier#verify} ({@link ApiKeys}, or the table of the
 * scale-out mode), in constant time, at the cost of one SHA-256.
 */
final class ApiKeyAuth {
    private final KeyVerifier keys;

    ApiKeyAuth(KeyVerifier keys) {
        this.keys = keys;
    }

    /** The answer to a write without a key or with a body other than JSON, or null when it may go on. */
    Response refusesWrite(Request request) {
        if (!authorized(request)) {
            return Errors.UNAUTHORIZED;
        }
        return request.declaresJsonOrNothing() ? null : Errors.UNSUPPORTED_MEDIA_TYPE;
    }

    boolean authorized(Request request) {
        String token = BearerToken.parse(request.header(HeaderName.AUTHORIZATION));
        return token != null && keys.verify(token.getBytes(StandardCharsets.ISO_8859_1));
    }
}
