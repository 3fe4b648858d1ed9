package dev.hotpath.apps.shortener.internal;

/** The alphabet {@code 0-9A-Za-z} in that order, both ways, on byte spans; nothing allocates but encoding. */
final class Base62 {
    static final String ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    private static final byte[] VALUE = new byte[256];

    static {
        java.util.Arrays.fill(VALUE, (byte) -1);
        for (int i = 0; i < ALPHABET.length(); i++) {
            VALUE[ALPHABET.charAt(i)] = (byte) i;
        }
    }

    private Base62() {
    }

    /** The digit value of {@code b}, or -1 when it is not in the alphabet. */
    static int value(byte b) {
        return VALUE[b & 0xFF];
    }

    /** {@code value} in exactly {@code width} digits, zero-padded; the caller checks it fits. */
    static String encodeFixed(long value, int width) {
        char[] out = new char[width];
        for (int i = width - 1; i >= 0; i--) {
            out[i] = ALPHABET.charAt((int) (value % 62));
            value /= 62;
        }
        return new String(out);
    }

    /** {@code value} without leading zeros ("0" for zero). */
    static String encode(long value) {
        if (value == 0) {
            return "0";
        }
        StringBuilder out = new StringBuilder(11);
        for (long v = value; v > 0; v /= 62) {
            out.append(ALPHABET.charAt((int) (v % 62)));
        }
        return out.reverse().toString();
    }
}
