package dev.hotpath.http.internal;

import dev.hotpath.http.BodySink;
import dev.hotpath.http.ContentType;
import dev.hotpath.http.Deferred;
import dev.hotpath.http.HeaderArena;
import dev.hotpath.http.Responder;
import dev.hotpath.http.Response;
import java.util.Objects;

/**
 * The {@link Responder} of one event loop, pointed at the connection and request being answered before
 * each {@link dev.hotpath.http.DirectHandler} call, and before each {@link dev.hotpath.http.LateAnswer}
 * is written: one instance per loop, so such an answer allocates nothing. Confined to the loop's thread.
 */
final class DirectResponder implements Responder {
    private Connection connection;
    private int flags;
    private FilterExchange exchange;
    private boolean answered;
    /** Writing a {@link dev.hotpath.http.LateAnswer}, which has its slot already: it may not defer. */
    private boolean late;
    private PendingResponse deferred;
    private final StreamedBody body = new StreamedBody();
    private boolean streaming;

    /** Points the responder at one request; {@code exchange} is its filter chain's, or null. */
    void begin(Connection connection, int flags, FilterExchange exchange) {
        this.connection = connection;
        this.flags = flags;
        this.exchange = exchange;
        this.answered = false;
        this.deferred = null;
        this.streaming = false;
        this.late = false;
    }

    /** Points the responder at a {@link dev.hotpath.http.LateAnswer} written in its turn: {@link #begin}, without {@link #defer()}. */
    void beginLate(Connection connection, int flags, FilterExchange exchange) {
        begin(connection, flags, exchange);
        this.late = true;
    }

    /**
     * Ends the call; whether the handler answered (deferring counts). A streamed answer is finished
     * here: sent on, or cut out again when its body was left short, which counts as no answer.
     */
    boolean finish() {
        Connection answering = connection;
        connection = null;
        exchange = null;
        if (streaming) {
            streaming = false;
            return answering.endStream(body);
        }
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
    public BodySink stream(int status, ContentType type, int length) {
        Objects.requireNonNull(type, "type");
        if (status < 200 || status > 599 || status == 204 || status == 304) {
            throw new IllegalArgumentException("a " + status + " answer has no body");
        }
        if (length < 0) {
            throw new IllegalArgumentException("negative body length: " + length);
        }
        Connection answering = claim();
        try {
            answering.startStream(body, status, type, length, flags, exchange);
        } catch (RuntimeException | Error e) {
            answered = false; // nothing was sent: the engine answers the failure as for any handler
            throw e;
        }
        streaming = true;
        return body;
    }

    @Override
    public Deferred defer() {
        if (late) {
            throw new IllegalStateException("an async answer cannot be deferred again");
        }
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
