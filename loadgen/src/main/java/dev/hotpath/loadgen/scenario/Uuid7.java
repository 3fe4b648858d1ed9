package dev.hotpath.loadgen.scenario;

/**
 * UUIDv7 text as the messages contract writes it: 8-4-4-4-12 lowercase hex, version 7, RFC 9562
 * variant. The harness reads ids itself (it never depends on the apps), strictly: an uppercase or
 * version-4 id is an answer the contract does not allow.
 */
final class Uuid7 {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Uuid7() {
    }

    /** {@code {high, low}} of a canonical UUIDv7, or null. */
    static long[] parse(String text) {
        if (text.length() != 36) {
            return null;
        }
        long[] halves = new long[2];
        int nibbles = 0;
        for (int i = 0; i < 36; i++) {
            char c = text.charAt(i);
            if (i == 8 || i == 13 || i == 18 || i == 23) {
                if (c != '-') {
                    return null;
                }
                continue;
            }
            int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            if (v < 0) {
                return null;
            }
            int half = nibbles++ / 16;
            halves[half] = halves[half] << 4 | v;
        }
        boolean version7 = (halves[0] >>> 12 & 0xF) == 7;
        boolean rfcVariant = halves[1] >>> 62 == 0b10;
        return version7 && rfcVariant ? halves : null;
    }

    /** The canonical text of {@code high, low}. */
    static String text(long high, long low) {
        char[] text = new char[36];
        int at = 0;
        for (int nibble = 0; nibble < 32; nibble++) {
            if (nibble == 8 || nibble == 12 || nibble == 16 || nibble == 20) {
                text[at++] = '-';
            }
            long half = nibble < 16 ? high : low;
            text[at++] = HEX[(int) (half >>> (60 - 4 * (nibble & 15))) & 0xF];
        }
        return new String(text);
    }
}
