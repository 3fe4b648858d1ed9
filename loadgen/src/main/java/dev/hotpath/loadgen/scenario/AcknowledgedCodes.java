package dev.hotpath.loadgen.scenario;

import java.util.HashMap;
import java.util.Map;

/**
 * The codes a run's creates were given, each with the sequence number of the URL it was created for:
 * to refuse a code given twice while the run goes on, and to re-read every link after it.
 *
 * <p>Why not a map of strings: the generator's collector copies and scans what survives, and every
 * acknowledged code survives. With a {@code ConcurrentHashMap<String, Long>}, a 15-second create run
 * at 56,000 creates/s had young-generation pauses of up to 92 ms in the generator, and each pause was
 * counted as server latency (p99.9 55 ms, max 95 ms, for a server whose own pauses were under 22 ms).
 * Here a code of up to {@value #MAX_PACKED_LENGTH} letters and digits (every generated scrambled or
 * sequential code of a bench run) is packed into a long in an open-addressing table of two primitive
 * arrays: no object per create. Longer codes (aliases, protected codes) go to a plain map.
 *
 * <p>Thread-safe: the generator's event loops check answers concurrently; a call holds the lock for
 * one probe sequence.
 */
final class AcknowledgedCodes {
    static final int MAX_PACKED_LENGTH = 9;
    private static final String DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    private static final long EMPTY = 0;

    /** Packed codes ({@link #pack}; never 0, as the length is at least 1) and, at the same index, their sequence. */
    private long[] keys = new long[1 << 16];
    private long[] sequences = new long[1 << 16];
    private int packed;
    private final Map<String, Long> unpacked = new HashMap<>();

    /** Records {@code code} for {@code sequence}; false (and nothing recorded) when the code was given before. */
    synchronized boolean add(String code, long sequence) {
        long key = pack(code);
        if (key == EMPTY) {
            return unpacked.putIfAbsent(code, sequence) == null;
        }
        int slot = find(keys, key);
        if (keys[slot] == key) {
            return false;
        }
        keys[slot] = key;
        sequences[slot] = sequence;
        if (++packed * 2 > keys.length) {
            grow();
        }
        return true;
    }

    /** The sequence {@code code} was given for, or -1. */
    synchronized long sequenceOf(String code) {
        long key = pack(code);
        if (key == EMPTY) {
            return unpacked.getOrDefault(code, -1L);
        }
        int slot = find(keys, key);
        return keys[slot] == key ? sequences[slot] : -1;
    }

    synchronized int size() {
        return packed + unpacked.size();
    }

    /** Every code and its sequence, at the same index: for the re-reading after the run. */
    synchronized Snapshot snapshot() {
        String[] codes = new String[size()];
        long[] of = new long[codes.length];
        int i = 0;
        for (int slot = 0; slot < keys.length; slot++) {
            if (keys[slot] != EMPTY) {
                codes[i] = unpack(keys[slot]);
                of[i++] = sequences[slot];
            }
        }
        for (Map.Entry<String, Long> e : unpacked.entrySet()) {
            codes[i] = e.getKey();
            of[i++] = e.getValue();
        }
        return new Snapshot(codes, of);
    }

    /** The recorded codes and, at the same index, their sequences. */
    record Snapshot(String[] codes, long[] sequences) {
    }

    /** The code's base-62 value times 16 plus its length, or {@link #EMPTY} when it does not pack. */
    static long pack(String code) {
        int length = code.length();
        if (length == 0 || length > MAX_PACKED_LENGTH) {
            return EMPTY;
        }
        long value = 0;
        for (int i = 0; i < length; i++) {
            int digit = DIGITS.indexOf(code.charAt(i));
            if (digit < 0) {
                return EMPTY;
            }
            value = value * 62 + digit;
        }
        return value << 4 | length;
    }

    static String unpack(long key) {
        char[] code = new char[(int) (key & 15)];
        long value = key >>> 4;
        for (int i = code.length - 1; i >= 0; i--) {
            code[i] = DIGITS.charAt((int) (value % 62));
            value /= 62;
        }
        return new String(code);
    }

    /** The slot holding {@code key}, or the empty slot where it would go. */
    private static int find(long[] table, long key) {
        int mask = table.length - 1;
        long mixed = key * 0x9E3779B97F4A7C15L;
        int slot = (int) (mixed ^ (mixed >>> 32)) & mask;
        while (table[slot] != EMPTY && table[slot] != key) {
            slot = (slot + 1) & mask;
        }
        return slot;
    }

    private void grow() {
        long[] oldKeys = keys;
        long[] oldSequences = sequences;
        keys = new long[oldKeys.length * 2];
        sequences = new long[oldKeys.length * 2];
        for (int slot = 0; slot < oldKeys.length; slot++) {
            if (oldKeys[slot] != EMPTY) {
                int to = find(keys, oldKeys[slot]);
                keys[to] = oldKeys[slot];
                sequences[to] = oldSequences[slot];
            }
        }
    }
}
