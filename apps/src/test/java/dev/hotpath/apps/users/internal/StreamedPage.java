package dev.hotpath.apps.users.internal;

import dev.hotpath.apps.internal.CollectedBody;
import dev.hotpath.http.BodySink;
import dev.hotpath.http.ContentType;
import dev.hotpath.http.Deferred;
import dev.hotpath.http.HeaderArena;
import dev.hotpath.http.Responder;
import dev.hotpath.http.Response;

/**
 * A {@link Responder} that takes one streamed answer and keeps its body, for reading a store's answer
 * without a server; {@link #body} fails unless the body was exactly the length declared for it.
 */
final class StreamedPage implements Responder {
    private final CollectedBody out = new CollectedBody();
    private int status;
    private int declared = -1;

    @Override
    public BodySink stream(int status, ContentType type, int length) {
        if (declared >= 0) {
            throw new IllegalStateException("answered twice");
        }
        this.status = status;
        this.declared = length;
        return out;
    }

    /** The body as text, after checking status 200 and the declared length. */
    String body() {
        return body(200);
    }

    /** The body as text, after checking {@code expectedStatus} and the declared length. */
    String body(int expectedStatus) {
        if (status != expectedStatus || out.size() != declared) {
            throw new AssertionError("status " + status + ", " + out.size() + " bytes written of " + declared + " declared");
        }
        return out.text();
    }

    @Override
    public void send(Response response) {
        throw new AssertionError("a page is streamed");
    }

    @Override
    public void redirect(int status, HeaderArena arena, long location) {
        throw new AssertionError("a page is streamed");
    }

    @Override
    public Deferred defer() {
        throw new AssertionError("a page is streamed");
    }
}
