package dev.hotpath.apps.shortener.internal;

/** Generated codes of mode {@code sequential}: base62 of the id without leading zeros (rushort style). */
public final class SequentialCodes {
    /** 62^11 exceeds every long id we hand out; a longer string is no code. */
    static final int MAX_LENGTH = 11;

    private SequentialCodes() {
    }

    public static String encode(long id) {
        return Base62.encode(id);
    }

    /** Whether {@code code} has the shape of a sequential code (1 to 11 alphanumerics). */
    public static boolean hasShape(CodeSpan code) {
        if (code.length() < 1 || code.length() > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < code.length(); i++) {
            if (Base62.value(code.byteAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    /** The id, or -1 for anything that is not the canonical code of an id (leading zeros included). */
    public static long decode(CodeSpan code) {
        if (!hasShape(code) || (code.length() > 1 && code.byteAt(0) == '0')) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < code.length(); i++) {
            if (v > (Long.MAX_VALUE - 61) / 62) {
                return -1;
            }
            v = v * 62 + Base62.value(code.byteAt(i));
        }
        return v;
    }
}
