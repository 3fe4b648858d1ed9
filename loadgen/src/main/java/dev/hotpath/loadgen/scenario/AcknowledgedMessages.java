package dev.hotpath.loadgen.scenario;

/**
 * The messages a run's creates were acknowledged with: each id (a UUID as two longs) with the tag of
 * the request it answered and its {@code created_at} in epoch milliseconds, to refuse an id given twice
 * while the run goes on and to re-read every message after it.
 *
 * <p>Primitive arrays in an open-addressing table, no object per acknowledged message, for the reason
 * {@link AcknowledgedCodes} gives: every acknowledged write survives the run, and a map of objects made
 * the generator's own collection pauses count as server latency. An all-zero id marks an empty slot; it
 * is never recorded, as the scenario accepts only version-7 ids.
 *
 * <p>Thread-safe: the generator's event loops check answers concurrently; a call holds the lock for one
 * probe sequence.
 */
final class AcknowledgedMessages {
    private long[] highs = new long[1 << 16];
    private long[] lows = new long[1 << 16];
    private long[] tags = new long[1 << 16];
    private long[] createdAts = new long[1 << 16];
    private long[] ackedAts = new long[1 << 16];
    private int size;

    /** Records an id; false (and nothing recorded) when it was given before. */
    synchronized boolean add(long high, long low, long tag, long createdAtMillis) {
        return add(high, low, tag, createdAtMillis, 0);
    }

    /** As {@link #add(long, long, long, long)}, with when the generator received the acknowledgement ({@link System#nanoTime()}). */
    synchronized boolean add(long high, long low, long tag, long createdAtMillis, long ackedAtNanos) {
        int slot = find(highs, lows, high, low);
        if (highs[slot] == high && lows[slot] == low && (high | low) != 0) {
            return false;
        }
        highs[slot] = high;
        lows[slot] = low;
        tags[slot] = tag;
        createdAts[slot] = createdAtMillis;
        ackedAts[slot] = ackedAtNanos;
        if (++size * 2 > highs.length) {
            grow();
        }
        return true;
    }

    /** The tag the id was given for, or -1. */
    synchronized long tagOf(long high, long low) {
        int slot = find(highs, lows, high, low);
        return (highs[slot] | lows[slot]) != 0 ? tags[slot] : -1;
    }

    synchronized int size() {
        return size;
    }

    /** Every recorded message, the four columns at the same index: for the re-reading after the run. */
    synchronized Snapshot snapshot() {
        Snapshot s = new Snapshot(new long[size], new long[size], new long[size], new long[size], new long[size]);
        int i = 0;
        for (int slot = 0; slot < highs.length; slot++) {
            if ((highs[slot] | lows[slot]) != 0) {
                s.highs[i] = highs[slot];
                s.lows[i] = lows[slot];
                s.tags[i] = tags[slot];
                s.ackedAts[i] = ackedAts[slot];
                s.createdAts[i++] = createdAts[slot];
            }
        }
        return s;
    }

    /** The recorded ids, tags, creation and acknowledgement times, at the same index. */
    record Snapshot(long[] highs, long[] lows, long[] tags, long[] createdAts, long[] ackedAts) {
        /** The indexes in the order the messages were acknowledged. */
        int[] byAcknowledgement() {
            return java.util.stream.IntStream.range(0, tags.length).boxed()
                .sorted(java.util.Comparator.comparingLong((Integer i) -> ackedAts[i]).thenComparingLong(i -> tags[i]))
                .mapToInt(Integer::intValue).toArray();
        }
    }

    /** The slot holding the id, or the empty slot where it would go. */
    private static int find(long[] highs, long[] lows, long high, long low) {
        int mask = highs.length - 1;
        long mixed = (high ^ Long.rotateLeft(low, 29)) * 0x9E3779B97F4A7C15L;
        int slot = (int) (mixed ^ (mixed >>> 32)) & mask;
        while ((highs[slot] | lows[slot]) != 0 && (highs[slot] != high || lows[slot] != low)) {
            slot = (slot + 1) & mask;
        }
        return slot;
    }

    private void grow() {
        long[] oldHighs = highs;
        long[] oldLows = lows;
        long[] oldTags = tags;
        long[] oldCreatedAts = createdAts;
        long[] oldAckedAts = ackedAts;
        highs = new long[oldHighs.length * 2];
        lows = new long[oldHighs.length * 2];
        tags = new long[oldHighs.length * 2];
        createdAts = new long[oldHighs.length * 2];
        ackedAts = new long[oldHighs.length * 2];
        for (int slot = 0; slot < oldHighs.length; slot++) {
            if ((oldHighs[slot] | oldLows[slot]) != 0) {
                int to = find(highs, lows, oldHighs[slot], oldLows[slot]);
                highs[to] = oldHighs[slot];
                lows[to] = oldLows[slot];
                tags[to] = oldTags[slot];
                createdAts[to] = oldCreatedAts[slot];
                ackedAts[to] = oldAckedAts[slot];
            }
        }
    }
}
