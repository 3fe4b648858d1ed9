package dev.hotpath.apps.users.internal;

import dev.hotpath.http.BodySink;
import dev.hotpath.http.ContentType;
import dev.hotpath.http.Responder;
import dev.hotpath.http.Response;
import java.time.Clock;
import java.util.Arrays;

/**
 * Users in the heap (scenario S3): each user's {@code 200} answer built once when it is added, so a
 * read is an array index and allocates nothing; a page is streamed into the outbound buffer
 * ({@link Responder#stream}), each user's JSON copied out of its answer's body, and allocates nothing
 * either. Ids are dense (1, 2, ...), so the array is indexed by id.
 *
 * <p>Creates take a lock (one at a time, from any loop) and publish the new user with a volatile write
 * of the count after storing it; reads take no lock. Costs about 190 bytes per user (the answer's
 * object and wire bytes, and its slot), where a separate copy of the JSON for pages added 110 more.
 */
public final class MemoryUsers implements UserStore {
    private final CreationTimes creationTimes;
    /** Writes each new user's answer; used under this store's lock. */
    private final UserRowJson writer = new UserRowJson();
    private volatile Response[] answers;
    /** Users stored: the highest id. Written after the array, read before it. */
    private volatile int count;

    public MemoryUsers(Clock clock) {
        this.creationTimes = new CreationTimes(clock);
        this.answers = new Response[PRELOADED * 2 + 1];
        UserJson.preloadedAnswers(answers, PRELOADED);
        count = PRELOADED;
    }

    @Override
    public boolean find(long id, Responder responder) {
        Response answer = answer(id);
        if (answer == null) {
            return false;
        }
        responder.send(answer);
        return true;
    }

    /** The {@code 200} answer kept for user {@code id}, or null when there is none. */
    Response answer(long id) {
        int stored = count;
        return id >= 1 && id <= stored ? answers[(int) id] : null;
    }

    /** Streams the page: its length summed from the users' answers, then each one's JSON copied out of it. */
    @Override
    public void page(long after, int limit, Responder responder) {
        int stored = count;
        Response[] all = answers;
        int users = (int) Math.min(limit, Math.max(0, stored - after));
        int first = (int) Math.min(after, stored) + 1;
        int listBytes = Math.max(0, users - 1); // the commas
        for (int id = first; id < first + users; id++) {
            listBytes += all[id].bodyLength();
        }
        long next = users == limit ? after + users : -1;
        BodySink body = responder.stream(200, ContentType.JSON, UserJson.pageLength(listBytes, next));
        UserJson.writePageStart(body);
        for (int id = first; id < first + users; id++) {
            if (id > first) {
                body.writeByte(',');
            }
            Response user = all[id];
            body.write(user.wire(), user.headLength(), user.bodyLength());
        }
        UserJson.writePageEnd(body, next);
    }

    /** Adds the user with the next id; returns the {@code 200} answer it keeps for the user, whose body a create answers. */
    public synchronized Response create(NewUser user) {
        int id = count + 1;
        if (id >= answers.length) {
            answers = Arrays.copyOf(answers, answers.length * 2);
        }
        Response answer = writer.answer(200, id, user, creationTimes.now());
        answers[id] = answer;
        count = id;
        return answer;
    }

    @Override
    public void close() {
    }
}
