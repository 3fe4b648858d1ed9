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
    private boolean answered;
    private PendingResponse deferred;

    void begin(Connection connection, int flags) {
        this.connection = connection;
        this.flags = flags;
        this.answered = false;
        this.deferred = null;
    }

    /** Ends the call; whether the handler answered (deferring counts). */
    boolean finish() {
        connection = null;
        return answered;
    }

    /** The slot {@link #defer()} handed out during this call, or null; for answering a handler that threw. */
    PendingResponse deferred() {
        return deferred;
    }

    @Override
    public void send(Response response) {
        claim().respond(response, flags);
    }

    @Override
    public void redirect(int status, HeaderArena arena, long location) {
        if (status < 300 || status > 399) {
            throw new IllegalArgumentException("not a redirect status: " + status);
        }
        claim().respondRedirect(status, arena, location, flags);
    }

    @Override
    public Deferred defer() {
        deferred = claim().admitAsync(flags);
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
