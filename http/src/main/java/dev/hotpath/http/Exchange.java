package dev.hotpath.http;

/**
 * One request on its way through a {@link FilterChain}: what the filters read (the request, its method
 * and path, when it started) and what they add to the answer (response headers, which the engine writes
 * right after the status line of whatever response the request gets).
 *
 * <p>The engine's, reused for every request of an event loop: valid only during a filter call. For an
 * answer that comes later (an async handler's) the engine copies it once when the handler is called,
 * so {@link Filter#after} of such a request still sees its method, path, start and headers; that copy
 * too is reused once the answer is written, for a later async answer of the loop.
 */
public interface Exchange {
    /** The request: valid during {@link Filter#before}; null in {@link Filter#after} of an async answer. */
    Request request();

    Method method();

    /** Length in bytes of the request's path (without the query, still percent-encoded). */
    int pathLength();

    /** Copies the path's bytes into {@code into} at {@code offset}; returns the offset after them. */
    int copyPath(byte[] into, int offset);

    /** {@link System#nanoTime()} when the chain started on this request. */
    long startedNanos();

    /** The status of the answer: valid in {@link Filter#after} only (0 before). */
    int status();

    /**
     * Adds a response header with the value {@code value[from, to)}, sent with whatever answer this
     * request gets (the handler's, a filter's, or an error). Names the engine owns ({@code Date},
     * {@code Content-Length}, ...) must not be added. Allocates nothing once the loop's buffer has
     * grown to the largest set of headers added.
     *
     * @throws IllegalArgumentException for a value with a character a header value cannot carry
     */
    void addResponseHeader(HeaderName name, byte[] value, int from, int to);

    /**
     * Copies the value of the first response header named {@code name} added so far into {@code into}
     * (as much as fits) and returns its length, or -1 when none was added.
     */
    int responseHeader(HeaderName name, byte[] into);
}
