package dev.hotpath.http.internal;

import dev.hotpath.http.Deferred;
import dev.hotpath.http.HeaderArena;
import dev.hotpath.http.Responder;
import dev.hotpath.http.Response;

/**
 * The {@link Responder} of one event loop, pointed at the connection and request being answered before
 * each {@link dev.hotpath.http.DirectHandler} call: one instance per loop, so a direct answer allocates
 * nothing. Confined to the loop's thread.
 */
final class DirectResponder implements Responder {
    private Connection connection;
    private int flags;
    private FilterExchange exchange;
    private boolean answered;
    private PendingResponse deferred;

    /** Points the responder at one request; {@code exchange} is its filter chain's, or null. */
    void begin(Connection connection, int flags, FilterExchange exchange) {
        this.connection = connection;
        this.flags = flags;
        this.exchange = exchange;
        this.answered = false;
        this.deferred = null;
    }

    /** Ends the call; whether the handler answered (deferring counts). */
    boolean finish() {
        connection = null;
        exchange = null;
        return answered;
    }

    /** The slot {@link #defer()} handed out during this call, or null; for answering a handler that threw. */
    PendingResponse deferred() {
        return deferred;
    }

    @Override
    public void send(Response response) {
        claim().respond(response, flags, exchange);
    }

    @Override
    public void redirect(int status, HeaderArena arena, long location) {
        if (status < 300 || status > 399) {
            throw new IllegalArgumentException("not a redirect status: " + status);
        }
        claim().respondRedirect(status, arena, location, flags, exchange);
    }

    @Override
    public Deferred defer() {
        deferred = claim().admitAsync(flags, exchange);
        return deferred;
    }

    private Connection claim() {
        if (connection == null) {
            throw new IllegalStateException("the responder is used outside its handler call");
        }
        if (answered) {
            throw new IllegalStateException("request already answered");
        }
        answered = true;
        return connection;
    }
}
