package dev.hotpath.apps.shortener.internal;

import java.net.IDN;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Validates and normalizes a target URL as the shortener contract says, so that the stored form is
 * ASCII and is written into {@code Location} byte for byte, never carrying CR, LF or a scheme other
 * than http(s).
 *
 * <p>Accepted: absolute {@code http} or {@code https} with a host; no userinfo, no whitespace or
 * control characters, no backslash, a valid port, percent escapes complete. Normalized: scheme and
 * host lower-cased, the default port dropped, an empty path made {@code /}, an international host
 * turned into punycode, non-ASCII characters of path, query and fragment percent-encoded as UTF-8
 * with upper-case hex; existing escapes are kept. An already normal URL comes back unchanged.
 */
public final class UrlNormalizer {
    /** The longest stored URL, in bytes, after normalization. */
    public static final int MAX_LENGTH = 4096;
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private UrlNormalizer() {
    }

    /**
     * The normal form of {@code url}.
     *
     * @throws IllegalArgumentException with a sentence for the client when the URL is not accepted
     */
    public static String normalize(String url) {
        if (url.length() > MAX_LENGTH * 4) {
            throw new IllegalArgumentException("url longer than " + MAX_LENGTH + " bytes");
        }
        for (int i = 0; i < url.length(); i++) {
            char c = url.charAt(i);
            if (c <= 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F) || Character.isWhitespace(c) || c == 0x2028 || c == 0x2029) {
                throw new IllegalArgumentException("url contains whitespace or a control character");
            }
            if (c == '\\') {
                throw new IllegalArgumentException("url contains a backslash");
            }
        }
        int schemeEnd = url.indexOf("://");
        if (schemeEnd <= 0) {
            throw new IllegalArgumentException("url must be absolute: http:// or https://");
        }
        String scheme = url.substring(0, schemeEnd).toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("only http and https urls are accepted");
        }
        int authorityStart = schemeEnd + 3;
        int authorityEnd = authorityStart;
        while (authorityEnd < url.length() && "/?#".indexOf(url.charAt(authorityEnd)) < 0) {
            authorityEnd++;
        }
        String authority = url.substring(authorityStart, authorityEnd);
        if (authority.indexOf('@') >= 0) {
            throw new IllegalArgumentException("url must not contain userinfo (user@host)");
        }
        StringBuilder out = new StringBuilder(url.length() + 16);
        out.append(scheme).append("://").append(normalizeAuthority(authority, scheme));
        String rest = url.substring(authorityEnd);
        if (rest.isEmpty() || rest.charAt(0) != '/') {
            out.append('/');
        }
        appendEncoded(out, rest);
        if (out.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("url longer than " + MAX_LENGTH + " bytes");
        }
        return out.toString();
    }

    /** The host of an already normalized URL (lower-case ASCII, without port or brackets' content changes). */
    public static String hostOf(String normalizedUrl) {
        int start = normalizedUrl.indexOf("://") + 3;
        int end = start;
        while (end < normalizedUrl.length() && "/?#".indexOf(normalizedUrl.charAt(end)) < 0) {
            end++;
        }
        String authority = normalizedUrl.substring(start, end);
        if (authority.startsWith("[")) {
            return authority.substring(0, authority.indexOf(']') + 1);
        }
        int colon = authority.lastIndexOf(':');
        return colon < 0 ? authority : authority.substring(0, colon);
    }

    private static String normalizeAuthority(String authority, String scheme) {
        if (authority.isEmpty() || authority.startsWith(":")) {
            throw new IllegalArgumentException("url has no host");
        }
        String host;
        String port = null;
        if (authority.startsWith("[")) {
            int close = authority.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("url has an unterminated IPv6 host");
            }
            host = authority.substring(0, close + 1).toLowerCase(Locale.ROOT);
            for (int i = 1; i < host.length() - 1; i++) {
                char c = host.charAt(i);
                if (!(Character.digit(c, 16) >= 0 || c == ':' || c == '.')) {
                    throw new IllegalArgumentException("url has an invalid IPv6 host");
                }
            }
            String after = authority.substring(close + 1);
            if (!after.isEmpty()) {
                if (after.charAt(0) != ':') {
                    throw new IllegalArgumentException("url has an invalid host");
                }
                port = after.substring(1);
            }
        } else {
            int colon = authority.lastIndexOf(':');
            host = colon < 0 ? authority : authority.substring(0, colon);
            port = colon < 0 ? null : authority.substring(colon + 1);
            host = asciiHost(host);
        }
        if (host.isEmpty() || host.equals("[]")) {
            throw new IllegalArgumentException("url has no host");
        }
        if (port == null || port.isEmpty()) {
            return host;
        }
        if (port.length() > 5 || !port.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("url has an invalid port");
        }
        int number = Integer.parseInt(port);
        if (number < 1 || number > 65_535) {
            throw new IllegalArgumentException("url has an invalid port");
        }
        boolean defaultPort = (scheme.equals("http") && number == 80) || (scheme.equals("https") && number == 443);
        return defaultPort ? host : host + ":" + number;
    }

    /**
     * Lower-case ASCII host; international names to punycode (IDNA via {@link IDN}). A host of ASCII
     * letters, digits, dots and hyphens is checked against the same STD3 rules directly: IDN costs
     * microseconds a call, and start-up verifies every stored URL.
     */
    private static String asciiHost(String host) {
        String ascii = isPlainAsciiHost(host) ? host.toLowerCase(Locale.ROOT) : idnToAscii(host);
        if (ascii.endsWith(".")) {
            ascii = ascii.substring(0, ascii.length() - 1);
        }
        if (ascii.isEmpty() || ascii.startsWith(".") || ascii.contains("..")) {
            throw new IllegalArgumentException("url has an invalid host name");
        }
        return ascii;
    }

    private static String idnToAscii(String host) {
        try {
            return IDN.toASCII(host, IDN.USE_STD3_ASCII_RULES).toLowerCase(Locale.ROOT);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("url has an invalid host name");
        }
    }

    /**
     * Whether {@code host} is LDH labels that IDN would pass unchanged but for case: letters, digits and
     * hyphens, 1 to 63 per label, no hyphen at either end of a label (RFC 1123, STD3), an optional
     * final dot.
     */
    static boolean isPlainAsciiHost(String host) {
        int labelStart = 0;
        for (int i = 0; i <= host.length(); i++) {
            char c = i < host.length() ? host.charAt(i) : '.';
            if (c == '.') {
                int length = i - labelStart;
                if (length == 0) {
                    return i == host.length() && i > 0 && labelStart == i;
                }
                if (length > 63 || host.charAt(labelStart) == '-' || host.charAt(i - 1) == '-') {
                    return false;
                }
                labelStart = i + 1;
            } else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-')) {
                return false;
            }
        }
        return true;
    }

    /** Appends path, query and fragment: ASCII as is (escapes checked), other characters as UTF-8 escapes. */
    private static void appendEncoded(StringBuilder out, String rest) {
        for (int i = 0; i < rest.length(); i++) {
            char c = rest.charAt(i);
            if (c == '%') {
                if (i + 2 >= rest.length() || Character.digit(rest.charAt(i + 1), 16) < 0
                    || Character.digit(rest.charAt(i + 2), 16) < 0) {
                    throw new IllegalArgumentException("url has an incomplete percent escape");
                }
                out.append(c);
            } else if (c < 0x80) {
                out.append(c);
            } else {
                int end = i + 1;
                if (Character.isHighSurrogate(c)) {
                    if (end >= rest.length() || !Character.isLowSurrogate(rest.charAt(end))) {
                        throw new IllegalArgumentException("url contains an invalid character");
                    }
                    end++;
                } else if (Character.isLowSurrogate(c)) {
                    throw new IllegalArgumentException("url contains an invalid character");
                }
                for (byte b : rest.substring(i, end).getBytes(StandardCharsets.UTF_8)) {
                    out.append('%').append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
                }
                i = end - 1;
            }
        }
    }
}
