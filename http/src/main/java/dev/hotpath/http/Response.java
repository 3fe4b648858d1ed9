package dev.hotpath.http;

import dev.hotpath.http.internal.Ascii;
import dev.hotpath.http.internal.StatusLine;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * An immutable HTTP response whose status line, {@code Content-Type} and extra headers are encoded to
 * bytes once, when it is built. Build constant responses once and return the same instance from a
 * handler: sending it then costs a few buffer copies and no allocation.
 *
 * <p>The engine adds {@code Date}, {@code Content-Length} (except on 1xx and 204) and, when it closes
 * or keeps an HTTP/1.0 connection, {@code Connection}. Handlers must not set those; the builder refuses
 * them, and refuses any header value with a control character, so a response cannot split.
 */
public final class Response {
    private static final byte[] NO_BODY = new byte[0];

    private final int status;
    private final byte[] head;
    private final byte[] body;

    private Response(int status, byte[] head, byte[] body) {
        this.status = status;
        this.head = head;
        this.body = body;
    }

    /** A response with a body of the given media type; the array is the response's from now on. */
    public static Response of(int status, String contentType, byte[] body) {
        return builder(status).body(contentType, body);
    }

    /** A {@code text/plain; charset=utf-8} response. */
    public static Response text(int status, String text) {
        return of(status, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
    }

    /** An {@code application/json} response; {@code json} must already be valid JSON. */
    public static Response json(int status, String json) {
        return of(status, "application/json", json.getBytes(StandardCharsets.UTF_8));
    }

    /** A response without body and without {@code Content-Type}. */
    public static Response empty(int status) {
        return builder(status).build();
    }

    public static Builder builder(int status) {
        return new Builder(status);
    }

    public int status() {
        return status;
    }

    /** Status line, {@code Content-Type} and extra headers, each ending in CRLF. Shared: do not modify. */
    public byte[] encodedHead() {
        return head;
    }

    /** The body bytes. Shared: do not modify. */
    public byte[] body() {
        return body;
    }

    /** Collects headers for one {@link Response}; validates every name and value as it is added. */
    public static final class Builder {
        private final int status;
        private final ByteArrayOutputStream head = new ByteArrayOutputStream(128);

        private Builder(int status) {
            this.status = status;
            head.writeBytes(StatusLine.of(status));
        }

        /** Adds a header. Names the engine owns ({@code Date}, {@code Content-Length}, ...) are refused. */
        public Builder header(String name, String value) {
            checkName(name);
            checkValue(name, value);
            head.writeBytes(name.getBytes(StandardCharsets.US_ASCII));
            head.write(':');
            head.write(' ');
            head.writeBytes(value.getBytes(StandardCharsets.ISO_8859_1));
            head.write('\r');
            head.write('\n');
            return this;
        }

        /**
         * Finishes the response with a body; the array is the response's from now on: do not modify it.
         * A null {@code contentType} sends the body without {@code Content-Type}.
         */
        public Response body(String contentType, byte[] body) {
            if (contentType != null) {
                header("Content-Type", contentType);
            }
            return new Response(status, head.toByteArray(), body);
        }

        public Response build() {
            return new Response(status, head.toByteArray(), NO_BODY);
        }

        private static void checkName(String name) {
            if (name.isEmpty()) {
                throw new IllegalArgumentException("empty header name");
            }
            for (int i = 0; i < name.length(); i++) {
                char c = name.charAt(i);
                if (c > 0x7F || !Ascii.isTokenChar((byte) c)) {
                    throw new IllegalArgumentException("invalid header name: " + name);
                }
            }
            switch (name.toLowerCase(Locale.ROOT)) {
                case "date", "content-length", "connection", "transfer-encoding" ->
                    throw new IllegalArgumentException(name + " is set by the engine");
                default -> { }
            }
        }

        private static void checkValue(String name, String value) {
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c > 0xFF || !Ascii.isFieldValueChar((byte) c)) {
                    throw new IllegalArgumentException("invalid character in value of " + name);
                }
            }
        }
    }
}
