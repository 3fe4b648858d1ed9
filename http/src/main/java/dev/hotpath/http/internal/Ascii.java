package dev.hotpath.http.internal;

/**
 * Byte classes of RFC 9110/9112 and RFC 3986 as lookup tables, plus span comparisons over byte
 * arrays. Every check is one array load; nothing here allocates.
 */
public final class Ascii {
    public static final byte CR = '\r';
    public static final byte LF = '\n';
    public static final byte SP = ' ';
    public static final byte HTAB = '\t';

    private static final boolean[] TCHAR = new boolean[256];
    private static final boolean[] FIELD_VCHAR = new boolean[256];
    private static final boolean[] PATH_CHAR = new boolean[256];
    private static final boolean[] QUERY_CHAR = new boolean[256];
    private static final boolean[] AUTHORITY_CHAR = new boolean[256];
    private static final boolean[] REG_NAME_CHAR = new boolean[256];
    private static final byte[] HEX_VALUE = new byte[256];

    static {
        // tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TCHAR[c] = true;
        }
        for (int c = 0; c < 256; c++) {
            boolean alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
            TCHAR[c] |= alnum;
            // field-value bytes: VCHAR / obs-text / SP / HTAB (RFC 9110 §5.5)
            FIELD_VCHAR[c] = c == HTAB || (c >= 0x20 && c != 0x7F);
            // pchar = unreserved / pct-encoded / sub-delims / ":" / "@" (RFC 3986 §3.3); '/' separates segments
            PATH_CHAR[c] = alnum || "-._~!$&'()*+,;=:@/%".indexOf(c) >= 0;
            QUERY_CHAR[c] = PATH_CHAR[c] || c == '?';
            AUTHORITY_CHAR[c] = alnum || "-._~!$&'()*+,;=:[]%".indexOf(c) >= 0;
            // reg-name = *( unreserved / pct-encoded / sub-delims ) (RFC 3986 §3.2.2); an IPv4 address is one
            REG_NAME_CHAR[c] = AUTHORITY_CHAR[c] && c != ':' && c != '[' && c != ']';
            HEX_VALUE[c] = -1;
        }
        for (int c = '0'; c <= '9'; c++) {
            HEX_VALUE[c] = (byte) (c - '0');
        }
        for (int c = 'a'; c <= 'f'; c++) {
            HEX_VALUE[c] = (byte) (c - 'a' + 10);
            HEX_VALUE[c - 32] = (byte) (c - 'a' + 10);
        }
    }

    private Ascii() {
    }

    public static boolean isTokenChar(byte b) {
        return TCHAR[b & 0xFF];
    }

    public static boolean isFieldValueChar(byte b) {
        return FIELD_VCHAR[b & 0xFF];
    }

    static boolean isPathChar(byte b) {
        return PATH_CHAR[b & 0xFF];
    }

    static boolean isQueryChar(byte b) {
        return QUERY_CHAR[b & 0xFF];
    }

    static boolean isAuthorityChar(byte b) {
        return AUTHORITY_CHAR[b & 0xFF];
    }

    /** A byte of a host name or IPv4 address: an authority byte that is not a colon or a bracket. */
    static boolean isRegNameChar(byte b) {
        return REG_NAME_CHAR[b & 0xFF];
    }

    /** The value of a hex digit, or -1 for any other byte. */
    static int hexValue(byte b) {
        return HEX_VALUE[b & 0xFF];
    }

    static byte toLower(byte b) {
        return b >= 'A' && b <= 'Z' ? (byte) (b + 32) : b;
    }

    /** Whether {@code buf[start, end)} equals {@code lowerCaseExpected}, ASCII case-insensitively. */
    public static boolean equalsIgnoreCase(byte[] buf, int start, int end, byte[] lowerCaseExpected) {
        if (end - start != lowerCaseExpected.length) {
            return false;
        }
        for (int i = 0; i < lowerCaseExpected.length; i++) {
            if (toLower(buf[start + i]) != lowerCaseExpected[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether {@code buf[start, end)} equals {@code expected} byte for byte. A plain loop: the spans
     * compared here (methods, route paths) are a few bytes, where {@code Arrays.equals}' range checks
     * and vectorized set-up cost more than the comparison.
     */
    public static boolean equals(byte[] buf, int start, int end, byte[] expected) {
        if (end - start != expected.length) {
            return false;
        }
        for (int i = 0; i < expected.length; i++) {
            if (buf[start + i] != expected[i]) {
                return false;
            }
        }
        return true;
    }

    /** The bytes of an ASCII string, lower-cased: the form {@link #equalsIgnoreCase} expects. */
    public static byte[] lowerCaseBytes(String ascii) {
        byte[] bytes = new byte[ascii.length()];
        for (int i = 0; i < bytes.length; i++) {
            char c = ascii.charAt(i);
            if (c > 0x7F) {
                throw new IllegalArgumentException("not ASCII: " + ascii);
            }
            bytes[i] = toLower((byte) c);
        }
        return bytes;
    }
}
