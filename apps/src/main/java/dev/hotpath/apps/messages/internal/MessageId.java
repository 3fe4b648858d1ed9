package dev.hotpath.apps.messages.internal;

/**
 * A message id: a UUID as its two 64-bit halves, in the order of its bytes. Compared as unsigned
 * numbers, which is the order of the 16 bytes big-endian, so the order of the ids here, of their
 * canonical text and of the {@code BLOB} column SQLite sorts with {@code memcmp} is one and the same.
 *
 * @param high bytes 0 to 7: for a UUIDv7 the 48-bit millisecond timestamp, version and {@code rand_a}
 * @param low bytes 8 to 15: variant and {@code rand_b}
 */
public record MessageId(long high, long low) implements Comparable<MessageId> {
    private static final int TEXT_LENGTH = 36;
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** The Unix time in milliseconds of a UUIDv7 (its first 48 bits). */
    public long millis() {
        return high >>> 16;
    }

    /** The version nibble (7 for the ids this server makes). */
    public int version() {
        return (int) (high >>> 12) & 0xF;
    }

    /** The two variant bits (binary {@code 10}, that is 2, for RFC 9562 UUIDs). */
    public int variant() {
        return (int) (low >>> 62);
    }

    /** The 16 bytes, big-endian: what the {@code id} column stores. */
    public byte[] bytes() {
        byte[] b = new byte[16];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (high >>> (56 - 8 * i));
            b[8 + i] = (byte) (low >>> (56 - 8 * i));
        }
        return b;
    }

    /** The id of 16 stored bytes. */
    public static MessageId ofBytes(byte[] b) {
        if (b.length != 16) {
            throw new IllegalArgumentException("a message id has 16 bytes, not " + b.length);
        }
        long high = 0;
        long low = 0;
        for (int i = 0; i < 8; i++) {
            high = high << 8 | (b[i] & 0xFF);
            low = low << 8 | (b[8 + i] & 0xFF);
        }
        return new MessageId(high, low);
    }

    /**
     * The id of {@code text} in the 8-4-4-4-12 hex form (either case, as RFC 9562 §4 reads it), or null
     * for anything else: a caller answers "not found" or "invalid" without an exception.
     */
    public static MessageId parse(String text) {
        if (text.length() != TEXT_LENGTH) {
            return null;
        }
        long high = 0;
        long low = 0;
        int digits = 0;
        for (int i = 0; i < TEXT_LENGTH; i++) {
            char c = text.charAt(i);
            if (i == 8 || i == 13 || i == 18 || i == 23) {
                if (c != '-') {
                    return null;
                }
                continue;
            }
            int v = Character.digit(c, 16);
            if (v < 0 || c > 'f') {
                return null;
            }
            if (digits++ < 16) {
                high = high << 4 | v;
            } else {
                low = low << 4 | v;
            }
        }
        return new MessageId(high, low);
    }

    /** The canonical lowercase text, {@code 0194f5c2-7a3b-7cde-8f01-23456789abcd}. */
    @Override
    public String toString() {
        char[] text = new char[TEXT_LENGTH];
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

    @Override
    public int compareTo(MessageId other) {
        int byHigh = Long.compareUnsigned(high, other.high);
        return byHigh != 0 ? byHigh : Long.compareUnsigned(low, other.low);
    }
}
