package dev.hotpath.http;

/**
 * Answers a request at once by writing into a {@link Responder}: for answers assembled per request
 * without allocating, such as a redirect written from a {@link HeaderArena}. Same rules as a
 * {@link Handler}: it runs on the event loop and must not block. It must answer exactly once; one that
 * returns without answering, or throws before answering, is answered {@code 500}.
 */
@FunctionalInterface
public non-sealed interface DirectHandler extends RouteHandler {
    void handle(Request request, Responder responder);
}
