package dev.hotpath.http;

/**
 * Reads the token of an {@code Authorization: Bearer <token>} header (RFC 6750 §2.1), the one parser
 * every app uses. The scheme is matched case-insensitively (RFC 9110 §11.1), one or more spaces may
 * follow it, and the token must be a {@code b64token}: letters, digits and {@code - . _ ~ + /},
 * then optional {@code =} padding. Anything else (another scheme, an empty token, a space or a comma
 * inside it) is no bearer token at all, so a caller answers 401 without looking the value up.
 *
 * <p>Costs one substring per call (the token); the header value itself is already a string.
 */
public final class BearerToken {
    private static final String SCHEME = "Bearer";

    private BearerToken() {
    }

    /**
     * The token of an {@code Authorization} header value, or null when the value is absent or is not a
     * well-formed bearer credential.
     */
    public static String parse(String authorization) {
        if (!namesTheScheme(authorization)) {
            return null;
        }
        int start = SCHEME.length();
        while (start < authorization.length() && authorization.charAt(start) == ' ') {
            start++;
        }
        return isB64Token(authorization, start) ? authorization.substring(start) : null;
    }

    /**
     * Whether the header value names the Bearer scheme followed by a space, well-formed token or not:
     * tells a credential that is absent or of another scheme from a malformed bearer token.
     */
    public static boolean namesTheScheme(String authorization) {
        return authorization != null && authorization.length() > SCHEME.length()
            && authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())
            && authorization.charAt(SCHEME.length()) == ' ';
    }

    /** Whether {@code value} from {@code start} to its end is {@code 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="}. */
    private static boolean isB64Token(String value, int start) {
        int end = value.length();
        while (end > start && value.charAt(end - 1) == '=') {
            end--;
        }
        if (end == start) {
            return false;
        }
        for (int i = start; i < end; i++) {
            char c = value.charAt(i);
            boolean tokenChar = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/';
            if (!tokenChar) {
                return false;
            }
        }
        return true;
    }
}
