package dev.hotpath.http.internal;

import dev.hotpath.http.Deferred;
import dev.hotpath.http.Response;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A response that cannot leave yet: either an async one not yet completed, or a finished one queued
 * behind an earlier async one of the same connection. The connection sends them strictly in order.
 */
final class PendingResponse implements Deferred {
    private static final VarHandle RESPONSE;

    static {
        try {
            RESPONSE = MethodHandles.lookup().findVarHandle(PendingResponse.class, "result", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final System.Logger LOG = System.getLogger(PendingResponse.class.getName());

    final int flags;
    private final Connection connection;
    /** Null until completed; then a {@link Response}, or a {@link Supplier} the loop turns into one. */
    @SuppressWarnings("unused") // written through RESPONSE
    private volatile Object result;

    /** An async slot, completed later through {@link #complete}. */
    PendingResponse(Connection connection, int flags) {
        this.connection = connection;
        this.flags = flags;
    }

    /** A finished response waiting for its turn. */
    PendingResponse(Connection connection, int flags, Response response) {
        this(connection, flags);
        this.result = response;
    }

    /** Whether the response (or what builds it) has arrived. */
    boolean isComplete() {
        return result != null;
    }

    /**
     * The response, built now if it came as a {@link Supplier} (on the connection's loop, the only
     * caller); null when building it failed, which the caller answers 500.
     */
    Response response() {
        Object r = result;
        if (r instanceof Response response) {
            return response;
        }
        try {
            if (((Supplier<?>) r).get() instanceof Response built) {
                result = built;
                return built;
            }
            LOG.log(System.Logger.Level.ERROR, "a deferred answer built no response");
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "building a deferred answer failed", e);
        }
        return null;
    }

    @Override
    public void complete(Response response) {
        settle(Objects.requireNonNull(response, "response"));
    }

    @Override
    public void completeOnLoop(Supplier<Response> answer) {
        settle(Objects.requireNonNull(answer, "answer"));
    }

    private void settle(Object outcome) {
        if (!RESPONSE.compareAndSet(this, null, outcome)) {
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
