package dev.hotpath.apps.internal;

import dev.hotpath.http.Deferred;
import dev.hotpath.http.LateAnswer;
import dev.hotpath.http.Response;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link Deferred} for calling an app's async code without a server, its answer a future. A
 * {@link LateAnswer} is written at once, on the completing thread, through a {@link WrittenAnswer}
 * that turns a sent or streamed answer into the {@link Response} a server would send; a second
 * completion fails, as on a server.
 */
public final class FutureAnswer implements Deferred {
    private final CompletableFuture<Response> answer = new CompletableFuture<>();

    /** The answer, once completed. */
    public CompletableFuture<Response> future() {
        return answer;
    }

    @Override
    public void complete(Response response) {
        if (!answer.complete(response)) {
            throw new IllegalStateException("response already completed");
        }
    }

    @Override
    public void completeOnLoop(LateAnswer late) {
        WrittenAnswer written = new WrittenAnswer();
        late.answer(written);
        complete(written.response());
    }
}
