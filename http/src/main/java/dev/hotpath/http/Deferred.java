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
}
