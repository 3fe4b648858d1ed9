package dev.hotpath.apps.shortener.internal;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Generated codes of mode {@code scrambled}: exactly {@value #LENGTH} base62 characters that encode a
 * keyed permutation of the link id over the {@value #BITS}-bit domain, so neighbouring links get
 * unrelated codes and the number of links cannot be read off them, while resolving a code is
 * arithmetic: no hash lookup, no database read, no allocation.
 *
 * <p>The permutation is a balanced Feistel network of {@value #ROUNDS} rounds over 48 bits (two 24-bit
 * halves), restricted to the 47-bit domain by cycle walking: encrypt again while the result is at or
 * above 2^47. Each step is a bijection on 48 bits, so walking stays a bijection on the domain and takes
 * fewer than two steps on average. 62^8 ≈ 2.2 × 10^14 exceeds 2^47 ≈ 1.4 × 10^14, so every value has
 * an 8-character code, and a decoded value at or above 2^47 is no code at all.
 *
 * <p>The round keys derive from a secret created with the data directory; without it, codes are
 * unpredictable (this is obfuscation against enumeration, not encryption: use protected links for
 * secrets).
 */
public final class ScrambledCodes implements CodeScheme {
    public static final int LENGTH = 8;
    static final int BITS = 47;
    static final long DOMAIN = 1L << BITS;
    private static final int ROUNDS = 6;
    private static final long HALF_MASK = (1L << 24) - 1;

    private final long[] roundKeys = new long[ROUNDS];

    /** Derives the round keys from {@code secret} (SHA-256, 6 × 64 bits from two digests). */
    public ScrambledCodes(byte[] secret) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            ByteBuffer keys = ByteBuffer.allocate(64);
            keys.put(sha.digest(concat(secret, (byte) 1)));
            keys.put(sha.digest(concat(secret, (byte) 2)));
            keys.flip();
            for (int i = 0; i < ROUNDS; i++) {
                roundKeys[i] = keys.getLong();
            }
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public long capacity() {
        return DOMAIN;
    }

    @Override
    public String encode(long id) {
        if (id < 0 || id >= DOMAIN) {
            throw new IllegalArgumentException("id outside the code domain: " + id);
        }
        long v = id;
        do {
            v = encrypt(v);
        } while (v >= DOMAIN);
        return Base62.encodeFixed(v, LENGTH);
    }

    /** Exactly 8 alphanumerics. */
    @Override
    public boolean hasShape(CodeSpan code) {
        if (code.length() != LENGTH) {
            return false;
        }
        for (int i = 0; i < LENGTH; i++) {
            if (Base62.value(code.byteAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    /** One pass over the bytes checks the shape and reads the number. Allocates nothing. */
    @Override
    public long decode(CodeSpan code) {
        if (code.length() != LENGTH) {
            return NOT_SHAPED;
        }
        long v = 0;
        for (int i = 0; i < LENGTH; i++) {
            int digit = Base62.value(code.byteAt(i));
            if (digit < 0) {
                return NOT_SHAPED;
            }
            v = v * 62 + digit;
        }
        if (v >= DOMAIN) {
            return NOT_A_CODE;
        }
        do {
            v = decrypt(v);
        } while (v >= DOMAIN);
        return v;
    }

    @Override
    public String aliasShapeRefusal() {
        return "an alias of exactly 8 letters and digits could be a generated code: add a _ or -, or change its length";
    }

    long encrypt(long v) {
        long left = (v >>> 24) & HALF_MASK;
        long right = v & HALF_MASK;
        for (int i = 0; i < ROUNDS; i++) {
            long next = left ^ round(right, roundKeys[i]);
            left = right;
            right = next;
        }
        return (left << 24) | right;
    }

    long decrypt(long v) {
        long left = (v >>> 24) & HALF_MASK;
        long right = v & HALF_MASK;
        for (int i = ROUNDS - 1; i >= 0; i--) {
            long previous = right ^ round(left, roundKeys[i]);
            right = left;
            left = previous;
        }
        return (left << 24) | right;
    }

    /** The round function: a 64-bit mix (the splitmix64 finalizer) of the half and the key, cut to 24 bits. */
    private static long round(long half, long key) {
        long z = half ^ key;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        z = z ^ (z >>> 31);
        return z & HALF_MASK;
    }

    private static byte[] concat(byte[] secret, byte tag) {
        byte[] out = java.util.Arrays.copyOf(secret, secret.length + 1);
        out[secret.length] = tag;
        return out;
    }
}
