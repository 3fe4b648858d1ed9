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
     * Completes the slot with an answer the connection's event loop writes in its turn, from
     * {@code answer} ({@link LateAnswer}), instead of a {@link Response} made here: for an answer built
     * per request, whose bytes then go once, on the loop, into the outbound buffer. Completing after
     * the client went away is harmless; the answer is then never called.
     *
     * @throws IllegalStateException when this slot was already completed
     */
    void completeOnLoop(LateAnswer answer);

    /**
     * Runs {@code completions}, which complete many slots on this (foreign) thread, and hands the
     * responses to each event loop once, after they all completed, instead of once each: for a writer
     * acknowledging a committed batch. Usable as an {@link java.util.concurrent.Executor}
     * ({@code Deferred::completeTogether}).
     */
    static void completeTogether(Runnable completions) {
        dev.hotpath.http.internal.CompletionBatch.run(completions);
    }
}
