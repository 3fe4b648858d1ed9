package dev.hotpath.http.internal;

import dev.hotpath.http.Deferred;
import dev.hotpath.http.LateAnswer;
import dev.hotpath.http.Response;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * A response that cannot leave yet: either an async one not yet completed, or a finished one queued
 * behind an earlier async one of the same connection. The connection sends them strictly in order.
 * Its answer is a {@link Response} or a {@link LateAnswer} the loop writes when it is its turn.
 */
final class PendingResponse implements Deferred {
    private static final VarHandle ANSWER;

    static {
        try {
            ANSWER = MethodHandles.lookup().findVarHandle(PendingResponse.class, "answer", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final int flags;
    /** The copied exchange of a request that ran through a filter chain, or null. */
    final FilterExchange exchange;
    private final Connection connection;
    /** Null until completed, then a {@link Response} or a {@link LateAnswer}; written through ANSWER. */
    private volatile Object answer;

    /** An async slot, completed later through {@link #complete}. */
    PendingResponse(Connection connection, int flags, FilterExchange exchange) {
        this.connection = connection;
        this.flags = flags;
        this.exchange = exchange;
    }

    /** A finished response waiting for its turn. */
    PendingResponse(Connection connection, int flags, Response response, FilterExchange exchange) {
        this(connection, flags, exchange);
        this.answer = response;
    }

    /** The {@link Response} or {@link LateAnswer} completed, or null while open. */
    Object answer() {
        return answer;
    }

    @Override
    public void complete(Response response) {
        completeWith(Objects.requireNonNull(response, "response"));
    }

    @Override
    public void completeOnLoop(LateAnswer answer) {
        completeWith(Objects.requireNonNull(answer, "answer"));
    }

    private void completeWith(Object answer) {
        if (!ANSWER.compareAndSet(this, null, answer)) {
            throw new IllegalStateException("response already completed");
        }
        connection.onCompleted();
    }

    /** Completes with {@code response} unless a handler already did; for failures. */
    void completeIfOpen(Response response) {
        if (ANSWER.compareAndSet(this, null, response)) {
            connection.onCompleted();
        }
    }
}
