package dev.hotpath.apps.users.internal;

import dev.hotpath.http.BodySink;
import dev.hotpath.http.ContentType;
import dev.hotpath.http.Responder;
import java.time.Clock;
import java.util.Arrays;

/**
 * Users in the heap (scenario S3): each user's JSON written once, when it is added, and kept as bytes
 * appended to chunks of {@link #CHUNK_BYTES}; a read streams it into the outbound buffer
 * ({@link Responder#stream}) and a page streams each user's in turn, so neither allocates. Ids are
 * dense (1, 2, ...), so where a user's JSON lies is an array indexed by id.
 *
 * <p>Costs about 110–120 bytes per user: its JSON (98 bytes for a preloaded one, on average) and 12–24
 * bytes of the two arrays that say where it lies, which double as they grow. A {@code 200} answer
 * kept per user, an object and its wire bytes, was about 190, about what the peers' sorted map of
 * records costs (docs/ENGINES.md).
 *
 * <p>Creates take a lock (one at a time, from any loop) and publish the new user with a volatile write
 * of the count after storing it; reads take no lock and read the count first.
 */
public final class MemoryUsers implements UserStore {
    /**
     * The bytes of one chunk: about 2,600 users' JSON. Under half of G1's smallest region (1 MiB), so
     * a chunk is never a humongous object, which would take a region of its own.
     */
    static final int CHUNK_BYTES = 256 * 1024;

    private final CreationTimes creationTimes;
    /** Writes each new user's JSON; used under this store's lock. */
    private final UserRowJson writer = new UserRowJson();
    /** The chunks in order, the last one being filled; a user's JSON lies within one. */
    private volatile byte[][] chunks = new byte[4][];
    /** Where user {@code id}'s JSON starts: its chunk in the high 32 bits, its offset in the low ones. */
    private volatile long[] starts;
    /** The length of user {@code id}'s JSON. */
    private volatile int[] lengths;
    /** Users stored: the highest id. Written after the arrays, read before them. */
    private volatile int count;
    /** Under the lock: the chunk being filled, and how much of it is. */
    private int lastChunk = -1;
    private int filled;

    public MemoryUsers(Clock clock) {
        this.creationTimes = new CreationTimes(clock);
        this.starts = new long[PRELOADED * 2 + 1];
        this.lengths = new int[PRELOADED * 2 + 1];
        for (int id = 1; id <= PRELOADED; id++) {
            writer.preloaded(id);
            keep(id);
        }
        count = PRELOADED;
    }

    @Override
    public boolean find(long id, Responder responder) {
        if (id < 1 || id > count) {
            return false;
        }
        stream(200, (int) id, responder);
        return true;
    }

    /** Streams the page: its length summed from the users' lengths, then each one's JSON. */
    @Override
    public void page(long after, int limit, Responder responder) {
        int stored = count;
        int[] length = lengths;
        int users = (int) Math.min(limit, Math.max(0, stored - after));
        int first = (int) Math.min(after, stored) + 1;
        int listBytes = Math.max(0, users - 1); // the commas
        for (int id = first; id < first + users; id++) {
            listBytes += length[id];
        }
        long next = users == limit ? after + users : -1;
        BodySink body = responder.stream(200, ContentType.JSON, UserJson.pageLength(listBytes, next));
        UserJson.writePageStart(body);
        byte[][] chunk = chunks;
        long[] start = starts;
        for (int id = first; id < first + users; id++) {
            if (id > first) {
                body.writeByte(',');
            }
            body.write(chunk[(int) (start[id] >>> 32)], (int) start[id], length[id]);
        }
        UserJson.writePageEnd(body, next);
    }

    /** Adds the user with the next id and answers {@code 201} with its JSON, streamed from where it is kept. */
    public void create(NewUser user, Responder responder) {
        stream(201, add(user), responder);
    }

    /** Stores the user's JSON under the next id, published with the count; returns the id. */
    private synchronized int add(NewUser user) {
        int id = count + 1;
        writer.created(id, user, creationTimes.now());
        keep(id);
        count = id;
        return id;
    }

    /**
     * Keeps the writer's JSON as user {@code id}'s, in the chunk being filled or a new one; under the
     * lock, or at construction. Everything is allocated before any field changes, so a create that runs
     * out of memory leaves the store as it was, for the next to succeed.
     */
    private void keep(int id) {
        int length = writer.size();
        if (lastChunk < 0 || filled + length > chunks[lastChunk].length) {
            byte[] chunk = new byte[Math.max(CHUNK_BYTES, length)];
            byte[][] all = lastChunk + 1 == chunks.length ? Arrays.copyOf(chunks, chunks.length * 2) : chunks;
            all[lastChunk + 1] = chunk;
            chunks = all;
            lastChunk++;
            filled = 0;
        }
        if (id == starts.length) {
            long[] grownStarts = Arrays.copyOf(starts, id * 2);
            int[] grownLengths = Arrays.copyOf(lengths, id * 2);
            starts = grownStarts;
            lengths = grownLengths;
        }
        System.arraycopy(writer.bytes(), 0, chunks[lastChunk], filled, length);
        starts[id] = (long) lastChunk << 32 | filled;
        lengths[id] = length;
        filled += length;
    }

    /** Streams user {@code id}'s JSON, a user the count has published, with {@code status}. */
    private void stream(int status, int id, Responder responder) {
        long start = starts[id];
        int length = lengths[id];
        responder.stream(status, ContentType.JSON, length).write(chunks[(int) (start >>> 32)], (int) start, length);
    }

    @Override
    public void close() {
    }
}
