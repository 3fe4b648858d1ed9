package dev.hotpath.http;

/**
 * Where a {@link DirectHandler} writes the body of an answer it started with {@link Responder#stream}:
 * straight into the connection's outbound buffer, exactly the number of bytes it declared there. The
 * engine's, reused for every such answer of an event loop, and valid only during the handler call.
 * A write that would go past the declared length is refused before anything of it is written; a body
 * left short when the handler returns is cut out again and the request answered {@code 500}, so a
 * wrong length never reaches the wire.
 */
public interface BodySink {
    /**
     * Writes {@code bytes[from, from + length)}.
     *
     * @throws IllegalStateException past the declared length, or after the handler call
     */
    BodySink write(byte[] bytes, int from, int length);

    /** Writes all of {@code bytes}; see {@link #write(byte[], int, int)}. */
    default BodySink write(byte[] bytes) {
        return write(bytes, 0, bytes.length);
    }

    /** Writes one byte, the low eight bits of {@code b}; see {@link #write(byte[], int, int)}. */
    BodySink writeByte(int b);

    /**
     * Writes {@code value} in ASCII decimal digits, {@link #decimalLength} of them; see
     * {@link #write(byte[], int, int)}.
     *
     * @throws IllegalArgumentException for a negative value
     */
    BodySink writeDecimal(long value);

    /** How many digits {@link #writeDecimal} writes for {@code value} (≥ 0): for declaring a length first. */
    static int decimalLength(long value) {
        int digits = 1;
        for (long rest = value / 10; rest > 0; rest /= 10) {
            digits++;
        }
        return digits;
    }
}
