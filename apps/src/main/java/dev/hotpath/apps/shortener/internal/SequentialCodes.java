package dev.hotpath.apps.shortener.internal;

/**
 * Generated codes of mode {@code sequential}: base62 of the id without leading zeros (rushort style).
 * Short and predictable: anyone can count the links and walk them, which is the point of the mode.
 */
public final class SequentialCodes implements CodeScheme {
    /** 62^11 exceeds every long id we hand out; a longer string is no code. */
    static final int MAX_LENGTH = 11;

    @Override
    public long capacity() {
        return Long.MAX_VALUE;
    }

    @Override
    public String encode(long id) {
        return Base62.encode(id);
    }

    /** 1 to 11 alphanumerics. */
    @Override
    public boolean hasShape(CodeSpan code) {
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

    /** Anything shaped that is not the canonical code of an id (a leading zero, an overflow) is no code. */
    @Override
    public long decode(CodeSpan code) {
        if (!hasShape(code)) {
            return NOT_SHAPED;
        }
        if (code.length() > 1 && code.byteAt(0) == '0') {
            return NOT_A_CODE;
        }
        long v = 0;
        for (int i = 0; i < code.length(); i++) {
            if (v > (Long.MAX_VALUE - 61) / 62) {
                return NOT_A_CODE;
            }
            v = v * 62 + Base62.value(code.byteAt(i));
        }
        return v;
    }

    @Override
    public String aliasShapeRefusal() {
        return "an alias of at most 11 letters and digits could be a generated code: add a _ or -, or make it longer";
    }
}
