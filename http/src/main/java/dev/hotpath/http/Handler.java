package dev.hotpath.http;

/**
 * Answers a request at once, on the connection's event loop. It must not block: work that waits
 * (disk, another thread) belongs in an {@link AsyncHandler}. An exception thrown here is logged and
 * answered {@code 500}; the connection stays open.
 */
@FunctionalInterface
public non-sealed interface Handler extends RouteHandler {
    Response handle(Request request);
}
