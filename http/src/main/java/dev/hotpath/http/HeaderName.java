package dev.hotpath.http;

import dev.hotpath.http.internal.Ascii;

/**
 * A header field name prepared for lookups: its lower-cased bytes are computed once, so
 * {@link Request#header(HeaderName)} compares bytes in place and allocates nothing until a value is
 * turned into a {@code String}. Keep instances in constants.
 */
public final class HeaderName {
    public static final HeaderName CONTENT_TYPE = of("Content-Type");
    public static final HeaderName AUTHORIZATION = of("Authorization");
    public static final HeaderName HOST = of("Host");

    private final String name;
    private final byte[] bytes;
    private final byte[] lowerCase;

    private HeaderName(String name, byte[] lowerCase) {
        this.name = name;
        this.bytes = name.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        this.lowerCase = lowerCase;
    }

    public static HeaderName of(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c > 0x7F || !Ascii.isTokenChar((byte) c)) {
                throw new IllegalArgumentException("invalid header name: " + name);
            }
        }
        if (name.isEmpty()) {
            throw new IllegalArgumentException("empty header name");
        }
        return new HeaderName(name, Ascii.lowerCaseBytes(name));
    }

    /** The ASCII bytes as given, for writing the name in a response. Shared: do not modify. */
    public byte[] bytes() {
        return bytes;
    }

    /** The lower-cased ASCII bytes. Shared: do not modify. */
    public byte[] lowerCaseBytes() {
        return lowerCase;
    }

    @Override
    public String toString() {
        return name;
    }
}
