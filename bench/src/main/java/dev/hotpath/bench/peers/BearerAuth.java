package dev.hotpath.bench.peers;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * The bearer-token check of the users API: {@code Authorization: Bearer <token>}, the scheme in any
 * case (RFC 9110 §11.1), the token compared with {@link MessageDigest#isEqual}, whose time depends on
 * the lengths alone, never on how many leading bytes match. A missing, malformed or wrong header is
 * {@link Reply#UNAUTHORIZED} with {@value #CHALLENGE_HEADER}{@code : }{@value #CHALLENGE}.
 */
final class BearerAuth {
    static final String DEFAULT_TOKEN = "test-token-aaaaaaaaaaaaaaaaaaaa";
    static final String CHALLENGE_HEADER = "WWW-Authenticate";
    static final String CHALLENGE = "Bearer";

    private static final String SCHEME = "Bearer ";

    private final byte[] token;

    BearerAuth(String token) {
        this.token = token.getBytes(StandardCharsets.UTF_8);
    }

    /** Whether this {@code Authorization} header value ({@code null} when absent) carries the token. */
    boolean allows(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            return false;
        }
        byte[] sent = authorization.substring(SCHEME.length()).getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(token, sent);
    }
}
