package dev.hotpath.http.filters;

import dev.hotpath.http.BearerToken;
import dev.hotpath.http.Exchange;
import dev.hotpath.http.Filter;
import dev.hotpath.http.HeaderName;
import dev.hotpath.http.Response;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * Lets a request through only with {@code Authorization: Bearer <token>} naming the one configured
 * token; answers {@code 401} with {@code WWW-Authenticate: Bearer} otherwise (absent, another scheme,
 * a malformed or a wrong token). The scheme is matched case-insensitively and may be followed by
 * several spaces (RFC 6750 §2.1, RFC 9110 §11.1), like {@link BearerToken}. The token is compared in
 * time that depends on its length only, never on how many leading bytes match.
 *
 * <p>For a service with one shared secret (a benchmark, an internal API); an app with many keys looks
 * its keys up itself. Costs a header copy and one pass over the token; allocates nothing.
 */
public final class BearerAuth implements Filter {
    /** The answer to a request without the token. */
    public static final Response UNAUTHORIZED = Response.builder(401).header("WWW-Authenticate", "Bearer")
        .body("application/json", "{\"error\":\"unauthorized\",\"message\":\"a valid bearer token is required\"}"
            .getBytes(StandardCharsets.US_ASCII));
    private static final byte[] SCHEME = "bearer".getBytes(StandardCharsets.US_ASCII);
    /** Spaces a client may put between the scheme and the token before the value stops fitting. */
    private static final int SLACK = 16;

    private final byte[] token;
    private final byte[] value;

    private BearerAuth(byte[] token) {
        this.token = token;
        this.value = new byte[SCHEME.length + 1 + SLACK + token.length];
    }

    /**
     * One filter per event loop, each with its own scratch buffer.
     *
     * @throws IllegalArgumentException for a token that is not a well-formed bearer token
     */
    public static Supplier<Filter> factory(String token) {
        if (BearerToken.parse("Bearer " + token) == null) {
            throw new IllegalArgumentException("the token is not a bearer token (letters, digits and -._~+/ then optional =)");
        }
        byte[] bytes = token.getBytes(StandardCharsets.US_ASCII);
        return () -> new BearerAuth(bytes);
    }

    @Override
    public Response before(Exchange exchange) {
        int length = exchange.request().header(HeaderName.AUTHORIZATION, value);
        return length > 0 && length <= value.length && carriesToken(length) ? null : UNAUTHORIZED;
    }

    private boolean carriesToken(int length) {
        if (length <= SCHEME.length || value[SCHEME.length] != ' ') {
            return false;
        }
        for (int i = 0; i < SCHEME.length; i++) {
            if ((value[i] | 0x20) != SCHEME[i]) {
                return false;
            }
        }
        int start = SCHEME.length + 1;
        while (start < length && value[start] == ' ') {
            start++;
        }
        if (length - start != token.length) {
            return false;
        }
        int difference = 0;
        for (int i = 0; i < token.length; i++) {
            difference |= value[start + i] ^ token[i];
        }
        return difference == 0;
    }
}
