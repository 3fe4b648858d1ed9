package dev.hotpath.apps.internal;

import dev.hotpath.http.BodySink;
import dev.hotpath.http.ContentType;
import dev.hotpath.http.Deferred;
import dev.hotpath.http.HeaderArena;
import dev.hotpath.http.LateAnswer;
import dev.hotpath.http.Responder;
import dev.hotpath.http.Response;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link Deferred} for calling an app's async code without a server, its answer a future. A
 * {@link LateAnswer} is written at once, on the completing thread, through a responder that turns a
 * sent or streamed answer into the {@link Response} a server would send; a streamed body must be
 * exactly its declared length, and a second completion fails, as on a server.
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
        Written written = new Written();
        late.answer(written);
        complete(written.response());
    }

    /** The one answer a {@link LateAnswer} gives, sent or streamed. */
    private static final class Written implements Responder {
        private final CollectedBody body = new CollectedBody();
        private Response sent;
        private int status;
        private ContentType type;
        private int declared = -1;

        Response response() {
            if (sent != null) {
                return sent;
            }
            if (declared < 0) {
                throw new AssertionError("the late answer gave no answer");
            }
            if (body.size() != declared) {
                throw new AssertionError(body.size() + " bytes written of " + declared + " declared");
            }
            return Response.of(status, type.mediaType(), body.toByteArray());
        }

        @Override
        public void send(Response response) {
            answerOnce();
            sent = response;
        }

        @Override
        public BodySink stream(int status, ContentType type, int length) {
            answerOnce();
            this.status = status;
            this.type = type;
            this.declared = length;
            return body;
        }

        private void answerOnce() {
            if (sent != null || declared >= 0) {
                throw new IllegalStateException("request already answered");
            }
        }

        @Override
        public void redirect(int status, HeaderArena arena, long location) {
            throw new AssertionError("no app answers a late redirect");
        }

        @Override
        public Deferred defer() {
            throw new IllegalStateException("an async answer cannot be deferred again");
        }
    }
}
