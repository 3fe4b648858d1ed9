package dev.hotpath.http;

/**
 * The response slot of an async request. Complete it exactly once, from any thread; the engine hops to
 * the connection's event loop, batches completions that arrive together into one flush, and sends the
 * response as soon as every earlier response of the connection has been sent.
 */
public interface Deferred {
    /**
     * Sends {@code response} in its turn. Completing after the client went away is harmless.
     *
     * @throws IllegalStateException when this slot was already completed
     */
    void complete(Response response);

    /**
     * Like {@link #complete}, but the response is built by {@code answer} on the connection's event
     * loop, when its turn comes: for work that finishes on a thread whose time is precious (a single
     * writer that acknowledges a whole batch) and should not spend it encoding answers. {@code answer}
     * runs at most once, must not block, and is answered {@code 500} if it throws or returns null;
     * if the client went away first it does not run.
     *
     * @throws IllegalStateException when this slot was already completed
     */
    void completeOnLoop(java.util.function.Supplier<Response> answer);
}
