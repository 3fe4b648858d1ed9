package dev.hotpath.http;

/**
 * Answers a request later, from any thread, by completing the {@link Deferred}. The engine admits it
 * only while fewer than {@code ServerLimits.maxInFlight} async requests are open server-wide, and
 * answers {@code 503} with {@code Retry-After} otherwise, so slow work cannot queue without bound.
 * Responses still leave the connection in request order.
 *
 * <p>The {@link Request} is valid only until this method returns: copy what the work needs first.
 */
@FunctionalInterface
public non-sealed interface AsyncHandler extends RouteHandler {
    void handle(Request request, Deferred response);
}
