package dev.hotpath.apps.messages.internal;

import dev.hotpath.http.JsonBytes;
import dev.hotpath.http.Response;
import java.nio.charset.StandardCharsets;

/**
 * Every error the messages API answers, by its code: the status, the code of
 * {@code {"error":"<code>","message":"<text>"}}, and a default text. The metrics count refusals by
 * this code, so a new refusal is a new constant here. Every 503 but {@link #STREAM_UNAVAILABLE} says
 * {@code Retry-After: 1}: retrying helps there, and it does not help a server without a stream. A
 * stream that failed is worth retrying: that answer is built with {@link #response(String, boolean)}.
 */
public enum Refusal {
    INVALID_MESSAGE(400, "invalid_message", "the message is not valid"),
    MALFORMED_JSON(400, "malformed_json", "the body is not one JSON value"),
    UNKNOWN_FIELD(400, "unknown_field", "only from, to and message are accepted"),
    INVALID_QUERY(400, "invalid_query", "the query is not valid"),
    NOT_FOUND(404, "not_found", "no message with this id"),
    UNSUPPORTED_MEDIA_TYPE(415, "unsupported_media_type", "send Content-Type: application/json"),
    OVERLOADED(503, "overloaded", "too many writes are waiting; retry shortly"),
    STORE_UNAVAILABLE(503, "store_unavailable", "the message could not be stored; retry"),
    STREAM_UNAVAILABLE(503, "stream_unavailable",
        "this server runs without --stream; POST /message stores a message durably"),
    NOT_READY(503, "not_ready", "the server is draining");

    private final int status;
    private final String code;
    private final boolean retryHelps;
    private final Response standard;

    Refusal(int status, String code, String text) {
        this.status = status;
        this.code = code;
        this.retryHelps = status == 503 && !code.equals("stream_unavailable");
        this.standard = response(text);
    }

    public String code() {
        return code;
    }

    /** The answer with the default text, built once. */
    public Response response() {
        return standard;
    }

    /** The answer with a text of its own (which field, which limit). */
    public Response response(String text) {
        return response(text, retryHelps);
    }

    /**
     * The answer with a text of its own, with {@code Retry-After: 1} or without: a stream that failed
     * is worth retrying, a server without one is not, and both are {@code stream_unavailable}.
     */
    public Response response(String text, boolean retryAfter) {
        Response.Builder builder = Response.builder(status).header("Cache-Control", "no-store");
        if (retryAfter) {
            builder.header("Retry-After", "1");
        }
        return builder.body("application/json", JsonBytes.write(json -> {
            json.writeStartObject();
            json.writeStringField("error", code);
            json.writeStringField("message", wellFormed(text));
            json.writeEndObject();
        }));
    }

    /**
     * {@code text} with each lone surrogate as {@code ?}: a text may quote what the client sent (a field
     * name, the parser's view of a token), and JSON output has no form for a lone surrogate.
     */
    private static String wellFormed(String text) {
        return new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
    }

    /** A refusal found while reading a request, with its text; thrown without a stack trace. */
    public static final class Refused extends Exception {
        private final Refusal refusal;

        public Refused(Refusal refusal, String text) {
            super(text, null, false, false);
            this.refusal = refusal;
        }

        public Refusal refusal() {
            return refusal;
        }

        public Response response() {
            return refusal.response(getMessage());
        }
    }
}
