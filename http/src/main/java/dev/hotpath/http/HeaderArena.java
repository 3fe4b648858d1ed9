package dev.hotpath.http;

import dev.hotpath.http.internal.Ascii;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An append-only store of header values, validated once when added and sent straight from here by a
 * {@link Responder}: for apps that hold millions of values (the shortener's redirect targets), where a
 * pre-built {@link Response} per value would cost an object and ~50 bytes of copied headers each.
 *
 * <p>A value costs its bytes plus a 2-byte length, packed into 1 MiB chunks; its handle is a
 * {@code long} the app keeps. Nothing is ever removed. Adding is synchronized (adds come from one
 * writer thread in practice, so the lock is uncontended); reading is lock-free. A handle may be read on
 * another thread only after something orders it after the add, such as the app's volatile publish.
 */
public final class HeaderArena {
    /** The longest value: its length is stored in two bytes. */
    public static final int MAX_VALUE_BYTES = 0xFFFF;
    private static final int CHUNK_BITS = 20;
    private static final int CHUNK_BYTES = 1 << CHUNK_BITS;
    private static final int LENGTH_BYTES = 2;

    private volatile byte[][] chunks = new byte[8][];
    private int chunkCount;
    private int position = CHUNK_BYTES;

    /**
     * Stores {@code value} and returns its handle.
     *
     * @throws IllegalArgumentException for a value longer than {@link #MAX_VALUE_BYTES} or with a
     *     character a header value cannot carry (controls, CR, LF, anything above U+00FF)
     */
    public synchronized long add(String value) {
        int length = value.length();
        if (length > MAX_VALUE_BYTES) {
            throw new IllegalArgumentException("header value of " + length + " bytes; at most " + MAX_VALUE_BYTES);
        }
        for (int i = 0; i < length; i++) {
            char c = value.charAt(i);
            if (c > 0xFF || !Ascii.isFieldValueChar((byte) c)) {
                throw new IllegalArgumentException("invalid character in header value at index " + i);
            }
        }
        if (position + LENGTH_BYTES + length > CHUNK_BYTES) {
            startChunk();
        }
        byte[] chunk = chunks[chunkCount - 1];
        long handle = ((long) (chunkCount - 1) << CHUNK_BITS) | position;
        chunk[position] = (byte) (length >>> 8);
        chunk[position + 1] = (byte) length;
        value.getBytes(0, length, chunk, position + LENGTH_BYTES);
        position += LENGTH_BYTES + length;
        return handle;
    }

    private void startChunk() {
        byte[][] current = chunks;
        if (chunkCount == current.length) {
            current = Arrays.copyOf(current, current.length * 2);
        }
        current[chunkCount++] = new byte[CHUNK_BYTES];
        chunks = current;
        position = 0;
    }

    /** The value of {@code handle}, as a new string. */
    public String value(long handle) {
        return new String(array(handle), offset(handle), length(handle), StandardCharsets.ISO_8859_1);
    }

    /** The chunk holding {@code handle}'s bytes, for the engine's encoder. Shared: do not modify. */
    public byte[] array(long handle) {
        return chunks[(int) (handle >>> CHUNK_BITS)];
    }

    /** Where {@code handle}'s bytes start in {@link #array}. */
    public int offset(long handle) {
        return (int) (handle & (CHUNK_BYTES - 1)) + LENGTH_BYTES;
    }

    /** How many bytes {@code handle}'s value has. */
    public int length(long handle) {
        byte[] chunk = array(handle);
        int at = (int) (handle & (CHUNK_BYTES - 1));
        return (chunk[at] & 0xFF) << 8 | chunk[at + 1] & 0xFF;
    }

    /** Bytes reserved in chunks, used or not: what this arena holds on the heap. */
    public synchronized long reservedBytes() {
        return (long) chunkCount * CHUNK_BYTES;
    }
}
