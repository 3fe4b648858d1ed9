package dev.hotpath.apps.internal;

import dev.hotpath.http.BodySink;
import dev.hotpath.http.ContentType;
import dev.hotpath.http.Deferred;
import dev.hotpath.http.HeaderArena;
import dev.hotpath.http.Responder;
import dev.hotpath.http.Response;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A {@link Responder} that takes one answer, sent or streamed, for reading an app's answer without a
 * server: a second answer fails as on a server, and a streamed body must be exactly the length
 * declared for it. It cannot redirect, nor defer (as a late answer's cannot).
 */
public final class WrittenAnswer implements Responder, BodySink {
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private Response sent;
    private int status;
    private ContentType type;
    private int declared = -1;

    /** The answer as the server would send it, sent or streamed. */
    public Response response() {
        if (sent != null) {
            return sent;
        }
        checkStreamed(status);
        return Response.of(status, type.mediaType(), body.toByteArray());
    }

    /** The streamed body as text, after checking {@code expectedStatus} and the declared length. */
    public String streamed(int expectedStatus) {
        checkStreamed(expectedStatus);
        return body.toString(StandardCharsets.UTF_8);
    }

    private void checkStreamed(int expectedStatus) {
        if (declared < 0 || status != expectedStatus || body.size() != declared) {
            throw new AssertionError((sent != null ? "sent, not streamed: " : declared < 0 ? "no answer: " : "")
                + "status " + status + ", " + body.size() + " bytes written of " + declared + " declared");
        }
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
        return this;
    }

    private void answerOnce() {
        if (sent != null || declared >= 0) {
            throw new IllegalStateException("request already answered");
        }
    }

    @Override
    public void redirect(int status, HeaderArena arena, long location) {
        throw new AssertionError("no app answers a redirect here");
    }

    @Override
    public Deferred defer() {
        throw new IllegalStateException("an answer written here cannot be deferred");
    }

    @Override
    public BodySink write(byte[] bytes, int from, int length) {
        body.write(bytes, from, length);
        return this;
    }

    @Override
    public BodySink writeByte(int b) {
        body.write(b);
        return this;
    }

    @Override
    public BodySink writeDecimal(long value) {
        body.writeBytes(Long.toString(value).getBytes(StandardCharsets.US_ASCII));
        return this;
    }
}
