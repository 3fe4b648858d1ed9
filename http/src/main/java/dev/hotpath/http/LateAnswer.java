package dev.hotpath.http;

/**
 * An async answer that the connection's event loop writes itself when its turn comes
 * ({@link Deferred#completeOnLoop}), through the loop's {@link Responder} as a {@link DirectHandler}
 * answers: a body can go straight into the outbound buffer ({@link Responder#stream}). A
 * {@link Response} made on another thread for one answer is an object and an array of the answer's
 * size, garbage as soon as it is sent; an object that already holds what its answer says (a queued
 * write) can be its own late answer instead, and its answer leaves nothing behind. The cost: the
 * answer is written on the loop, so what it reads must not change once the slot is completed.
 */
@FunctionalInterface
public interface LateAnswer {
    /**
     * Answers once, through {@code responder}'s {@link Responder#send}, {@link Responder#redirect} or
     * {@link Responder#stream}; {@link Responder#defer} is refused. Runs on the event loop, so it must
     * not block. Throwing, or returning without an answer, is answered {@code 500}, as for a direct
     * handler.
     */
    void answer(Responder responder);
}
