package dev.hotpath.http;

/**
 * One step of a middleware chain ({@link FilterChain}) around a route's handler: request ids, access
 * logs, authentication, anything every route of a group does the same way.
 *
 * <p>The engine makes one instance per event loop (through the chain's factories), so a filter may
 * keep scratch buffers and counters in fields without locks. Both methods run on that loop and must
 * not block; neither should allocate, since they run for every request of the routes they guard.
 */
public interface Filter {
    /**
     * Runs before the handler, in chain order. Returns null to go on to the next filter (and in the
     * end the handler), or the answer to send instead: the later filters and the handler are then
     * skipped, while {@link #after} still runs for this filter and the ones before it. An exception is
     * answered {@code 500}, like a handler's.
     */
    Response before(Exchange exchange);

    /**
     * Runs once the answer is written into the connection's outbound buffer (its status is
     * {@link Exchange#status()}), in reverse chain order, for every filter whose {@link #before} ran.
     * For an answer that came later (an async handler's), this runs on the loop when it is written,
     * and {@link Exchange#request()} is null by then. An exception is logged and the others still run.
     */
    default void after(Exchange exchange) {
    }
}
