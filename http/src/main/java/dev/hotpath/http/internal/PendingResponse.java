package dev.hotpath.http.internal;

import dev.hotpath.http.Deferred;
import dev.hotpath.http.Response;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * A response that cannot leave yet: either an async one not yet completed, or a finished one queued
 * behind an earlier async one of the same connection. The connection sends them strictly in order.
 */
final class PendingResponse implements Deferred {
    private static final VarHandle RESPONSE;

    static {
        try {
            RESPONSE = MethodHandles.lookup().findVarHandle(PendingResponse.class, "response", Response.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final int flags;
    /** The copied exchange of a request that ran through a filter chain, or null. */
    final FilterExchange exchange;
    private final Connection connection;
    @SuppressWarnings("unused") // written through RESPONSE
    private volatile Response response;

    /** An async slot, completed later through {@link #complete}. */
    PendingResponse(Connection connection, int flags, FilterExchange exchange) {
        this.connection = connection;
        this.flags = flags;
        this.exchange = exchange;
    }

    /** A finished response waiting for its turn. */
    PendingResponse(Connection connection, int flags, Response response, FilterExchange exchange) {
        this(connection, flags, exchange);
        this.response = response;
    }

    Response response() {
        return response;
    }

    @Override
    public void complete(Response response) {
        Objects.requireNonNull(response, "response");
        if (!RESPONSE.compareAndSet(this, null, response)) {
            throw new IllegalStateException("response already completed");
        }
        connection.onCompleted();
    }

    /** Completes with {@code response} unless a handler already did; for failures. */
    void completeIfOpen(Response response) {
        if (RESPONSE.compareAndSet(this, null, response)) {
            connection.onCompleted();
        }
    }
}
