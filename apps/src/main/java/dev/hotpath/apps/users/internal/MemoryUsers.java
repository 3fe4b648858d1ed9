package dev.hotpath.apps.users.internal;

import dev.hotpath.http.JsonBytes;
import dev.hotpath.http.Response;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Users in the heap (scenario S3): each user's {@code 200} answer built once when it is added, so a
 * read is an array index and allocates nothing, and its JSON kept beside it for pages. Ids are dense
 * (1, 2, ...), so the arrays are indexed by id.
 *
 * <p>Creates take a lock (one at a time, from any loop) and publish the new user with a volatile write
 * of the count after storing it; reads take no lock. Costs about 250 bytes per user.
 */
public final class MemoryUsers implements UserStore {
    private final Clock clock;
    private volatile Response[] answers;
    private volatile byte[][] json;
    /** Users stored: the highest id. Written after the arrays, read before them. */
    private volatile int count;

    public MemoryUsers(Clock clock) {
        this.clock = clock;
        this.answers = new Response[PRELOADED * 2 + 1];
        this.json = new byte[PRELOADED * 2 + 1][];
        try (JsonBytes.Batch batch = new JsonBytes.Batch()) {
            for (int id = 1; id <= PRELOADED; id++) {
                store(id, UserJson.user(batch, id, "user-" + id, "user-" + id + "@example.com", UserJson.PRELOADED_AT));
            }
        }
        count = PRELOADED;
    }

    @Override
    public Response find(long id) {
        int stored = count;
        return id >= 1 && id <= stored ? answers[(int) id] : null;
    }

    @Override
    public byte[] page(long after, int limit) {
        int stored = count;
        byte[][] all = json;
        List<byte[]> users = new ArrayList<>(limit);
        long id = after;
        while (id < stored && users.size() < limit) {
            users.add(all[(int) ++id]);
        }
        return UserJson.page(users, users.size() == limit ? id : -1);
    }

    /** Adds the user with the next id; returns its {@code 201} answer. */
    public synchronized Response create(NewUser user) {
        int id = count + 1;
        if (id >= answers.length) {
            answers = Arrays.copyOf(answers, answers.length * 2);
            json = Arrays.copyOf(json, json.length * 2);
        }
        String createdAt = Instant.ofEpochMilli(clock.millis()).truncatedTo(ChronoUnit.SECONDS).toString();
        byte[] body = UserJson.user(id, user.name(), user.email(), createdAt);
        store(id, body);
        count = id;
        return Response.of(201, "application/json", body);
    }

    private void store(int id, byte[] body) {
        json[id] = body;
        answers[id] = Response.of(200, "application/json", body);
    }

    @Override
    public void close() {
    }
}
