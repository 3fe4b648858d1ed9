package dev.hotpath.http;

/**
 * Where a {@link DirectHandler} writes its one answer. It is the engine's, reused for every request of
 * an event loop, and valid only during the handler call. The answer is encoded straight into the
 * connection's outbound buffer when nothing is owed before it (the common case), and copied into a
 * {@link Response} only when it must queue behind an unfinished async response.
 */
public interface Responder {
    /**
     * Answers with a pre-built response.
     *
     * @throws IllegalStateException when this request was already answered
     */
    void send(Response response);

    /**
     * Answers with a redirect whose {@code Location} is a value of {@code arena}, written from the
     * arena's bytes: nothing is allocated and nothing copied but into the outbound buffer.
     *
     * @param status a 3xx status
     * @param location a handle from {@link HeaderArena#add}
     * @throws IllegalArgumentException for a status that is not 3xx
     * @throws IllegalStateException when this request was already answered
     */
    void redirect(int status, HeaderArena arena, long location);

    /**
     * Answers with {@code status} and a body of exactly {@code length} bytes of {@code type}, which the
     * handler writes through the returned sink before it returns: for a body assembled per request
     * (a page of records) without building it in an array first. The head goes straight into the
     * outbound buffer, the body after it, so nothing is allocated; only an answer that must queue
     * behind an unfinished async one is gathered into an array and a {@link Response}. A {@code HEAD}
     * request gets the same head and no body (the writes are counted, not sent).
     *
     * @throws IllegalArgumentException for a negative length, or a status that has no body (1xx, 204,
     *     304) or is out of range
     * @throws IllegalStateException when this request was already answered
     */
    BodySink stream(int status, ContentType type, int length);

    /**
     * Answers later instead: returns the request's response slot, to complete from any thread exactly
     * as an {@link AsyncHandler}'s, for a handler that answers most requests at once and a few only
     * after a lookup it must not block on (a cache miss). Responses still leave in request order. Like
     * any async request it counts toward the server's in-flight limit: when that is full, the engine
     * answers {@code 503} with {@code Retry-After} itself and this returns null, and the handler just
     * returns without starting the lookup.
     *
     * @throws IllegalStateException when this request was already answered
     */
    Deferred defer();
}
