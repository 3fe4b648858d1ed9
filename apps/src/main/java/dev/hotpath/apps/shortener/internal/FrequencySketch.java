package dev.hotpath.apps.shortener.internal;

/**
 * How often keys were asked for lately, estimated in little memory: a count-min sketch of 4-bit
 * counters (16 per key of capacity; a key counts in four of them and its estimate is the smallest).
 * After {@code 10 × capacity} additions every counter is halved, so the estimate follows what is popular now, not since start.
 * {@link LocalLinks} uses it to decide whether a link it just looked up deserves a place more than the
 * link it would push out (the TinyLFU admission policy).
 *
 * <p>Cost: 8 bytes per key of capacity; an addition or an estimate reads four words. Fewer counters
 * would save memory and lie: at 4 per key, the four counters of a key never asked for already read
 * about 6 each, from other keys, by the end of a period. Not thread-safe: its owner calls it under its own lock.
 */
final class FrequencySketch {
    static final int MAX = 15;
    private static final long HALF_OF_EACH = 0x7777_7777_7777_7777L;

    private final long[] words;
    private final int counterMask;
    private final int sampleSize;
    private int additions;

    /** @param capacity the number of keys the owner holds at most */
    FrequencySketch(int capacity) {
        int counters = Integer.highestOneBit(Math.max(64, capacity) * 16 - 1) << 1; // a power of two
        this.words = new long[counters / 16];
        this.counterMask = counters - 1;
        this.sampleSize = 10 * Math.max(64, capacity);
    }

    /**
     * Counts one more request for the key of {@code hash} (a well-mixed 64-bit hash).
     *
     * @return true when this addition halved every counter: the owner ages its own counts the same way
     */
    boolean add(long hash) {
        for (int i = 0; i < 4; i++) {
            int counter = counter(hash, i);
            int shift = (counter & 15) << 2;
            int word = counter >>> 4;
            if (((words[word] >>> shift) & 0xF) < MAX) {
                words[word] += 1L << shift;
            }
        }
        if (++additions < sampleSize) {
            return false;
        }
        additions = 0;
        for (int i = 0; i < words.length; i++) {
            words[i] = (words[i] >>> 1) & HALF_OF_EACH;
        }
        return true;
    }

    /** How often the key of {@code hash} was added lately, at most {@link #MAX}. */
    int estimate(long hash) {
        int least = MAX;
        for (int i = 0; i < 4; i++) {
            int counter = counter(hash, i);
            least = Math.min(least, (int) (words[counter >>> 4] >>> ((counter & 15) << 2)) & 0xF);
        }
        return least;
    }

    /** The {@code i}-th of the key's four counters: double hashing from the two halves of its hash. */
    private int counter(long hash, int i) {
        return ((int) hash + i * ((int) (hash >>> 32) | 1)) & counterMask;
    }
}
