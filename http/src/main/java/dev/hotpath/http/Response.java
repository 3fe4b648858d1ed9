package dev.hotpath.http;

import dev.hotpath.http.internal.Ascii;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * An immutable HTTP response, encoded to its wire bytes once, when it is built: every header but the
 * status line and {@code Date}, then {@code Content-Length} and the empty line, then the body, in one
 * array. Sending it is two copies into the outbound buffer (the status line with the current
 * {@code Date}, cached per second, then this array), so build constant responses once and return the
 * same instance from a handler.
 *
 * <p>The engine owns {@code Date}, {@code Content-Length} (sent except on 1xx, 204 and 304),
 * {@code Connection} and {@code Transfer-Encoding}, which the builder refuses; every way of building
 * one refuses a header value with a control character, so a response cannot be split.
 */
public final class Response {
    private static final byte[] NO_BODY = new byte[0];
    private static final String CONTENT_TYPE = "Content-Type";
    private static final String CONTENT_LENGTH = "Content-Length";
    private static final String LOCATION = "Location";

    private final int status;
    private final byte[] wire;
    private final int headLength;

    private Response(int status, byte[] wire, int headLength) {
        this.status = status;
        this.wire = wire;
        this.headLength = headLength;
    }

    /**
     * A response with a body of the given media type (none when {@code contentType} is null), encoded
     * straight into one array of its exact size: no builder, no header buffer, no length string. The
     * way dynamic answers (a created record) and answers built in bulk at start-up are made.
     *
     * @throws IllegalArgumentException for a status outside 100–599, a body on a status that has none
     *     (1xx, 204, 304), or a content type with a control character
     */
    public static Response of(int status, String contentType, byte[] body) {
        return of(status, contentType, body, body.length);
    }

    /**
     * {@link #of(int, String, byte[])} with the body at {@code bytes[0, length)}: for a writer that
     * keeps its own buffer, which it may write over again as soon as this returns (the answer holds a
     * copy), so the body is copied once, from that buffer into the answer.
     *
     * @throws IndexOutOfBoundsException when {@code length} is negative or past {@code bytes}
     * @throws IllegalArgumentException as {@link #of(int, String, byte[])} does
     */
    public static Response of(int status, String contentType, byte[] bytes, int length) {
        Objects.checkFromIndexSize(0, length, bytes.length);
        checkStatus(status);
        boolean sendsLength = sendsContentLength(status, length);
        int headLength = (contentType == null ? 0 : fieldSize(CONTENT_TYPE, contentType))
            + (sendsLength ? contentLengthSize(length) : 0) + 2;
        byte[] wire = new byte[headLength + length];
        int at = contentType == null ? 0 : putField(wire, 0, CONTENT_TYPE, contentType);
        if (sendsLength) {
            at = putContentLength(wire, at, length);
        }
        wire[at++] = '\r';
        wire[at++] = '\n';
        System.arraycopy(bytes, 0, wire, at, length);
        return new Response(status, wire, at);
    }

    /** {@code Content-Type: mediaType\r\n}, refused as {@link #of(int, String, byte[])} refuses it; for {@link ContentType}. */
    static byte[] contentTypeField(String mediaType) {
        byte[] field = new byte[fieldSize(CONTENT_TYPE, mediaType)];
        putField(field, 0, CONTENT_TYPE, mediaType);
        return field;
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

    /**
     * A redirect to {@code location}: {@code Location} and {@code Content-Length: 0}, encoded straight
     * into one array (no builder). For apps that hold many redirects, such as the shortener's million
     * links loaded at start.
     *
     * @throws IllegalArgumentException for a status that is not 3xx or a location with a control character
     */
    public static Response redirect(int status, String location) {
        if (status < 300 || status > 399) {
            throw new IllegalArgumentException("not a redirect status: " + status);
        }
        byte[] wire = new byte[fieldSize(LOCATION, location) + contentLengthSize(0) + 2];
        int at = putContentLength(wire, putField(wire, 0, LOCATION, location), 0);
        wire[at++] = '\r';
        wire[at++] = '\n';
        return new Response(status, wire, at);
    }

    public static Builder builder(int status) {
        return new Builder(status);
    }

    public int status() {
        return status;
    }

    /**
     * The header fields after the status line, {@code Content-Length}, the empty line and the body.
     * Shared: do not modify.
     */
    public byte[] wire() {
        return wire;
    }

    /** Where the body starts in {@link #wire()}: what a response to {@code HEAD} sends. */
    public int headLength() {
        return headLength;
    }

    /** The body's length: it is {@link #wire()} from {@link #headLength()} to the end. */
    public int bodyLength() {
        return wire.length - headLength;
    }

    private static void checkStatus(int status) {
        if (status < 100 || status > 599) {
            throw new IllegalArgumentException("status out of range: " + status);
        }
    }

    /**
     * Whether {@code status} sends {@code Content-Length} (all but 1xx, 204 and 304).
     *
     * @throws IllegalArgumentException for a body on a status that has none
     */
    private static boolean sendsContentLength(int status, int bodyLength) {
        if (status >= 200 && status != 204 && status != 304) {
            return true;
        }
        if (bodyLength > 0) {
            throw new IllegalArgumentException("a " + status + " response has no body");
        }
        return false;
    }

    /** The bytes of {@code name: value\r\n}. */
    private static int fieldSize(String name, String value) {
        return name.length() + value.length() + 4;
    }

    /** The bytes of {@code Content-Length: N\r\n}. */
    private static int contentLengthSize(int length) {
        return CONTENT_LENGTH.length() + BodySink.decimalLength(length) + 4;
    }

    /**
     * Writes {@code name: value\r\n} at {@code wire[at]}, which has room for it; returns where it ends.
     * A value with a control character (or past Latin-1) is refused, so a response cannot be split.
     */
    private static int putField(byte[] wire, int at, String name, String value) {
        at = putName(wire, at, name);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c > 0xFF || !Ascii.isFieldValueChar((byte) c)) {
                throw new IllegalArgumentException("invalid character in value of " + name);
            }
            wire[at++] = (byte) c;
        }
        wire[at++] = '\r';
        wire[at++] = '\n';
        return at;
    }

    /** Writes {@code Content-Length: N\r\n} at {@code wire[at]}, which has room for it; returns where it ends. */
    private static int putContentLength(byte[] wire, int at, int length) {
        at = putName(wire, at, CONTENT_LENGTH);
        int end = at + BodySink.decimalLength(length);
        for (int digit = end - 1; digit >= at; digit--) {
            wire[digit] = (byte) ('0' + length % 10);
            length /= 10;
        }
        wire[end] = '\r';
        wire[end + 1] = '\n';
        return end + 2;
    }

    /** Writes {@code name: } at {@code wire[at]}; returns where the value goes. */
    private static int putName(byte[] wire, int at, String name) {
        for (int i = 0; i < name.length(); i++) {
            wire[at++] = (byte) name.charAt(i);
        }
        wire[at++] = ':';
        wire[at++] = ' ';
        return at;
    }

    /**
     * Collects headers for one {@link Response}; validates every name and value as it writes them
     * straight into its own array (no stream, no per-header {@code getBytes}), which is then copied
     * once, with the body, into the wire array.
     */
    public static final class Builder {
        private static final String[] ENGINE_OWNED = {"Date", "Content-Length", "Connection", "Transfer-Encoding"};
        private final int status;
        private byte[] head = new byte[128];
        private int length;

        private Builder(int status) {
            checkStatus(status);
            this.status = status;
        }

        /** Adds a header. Names the engine owns ({@code Date}, {@code Content-Length}, ...) are refused. */
        public Builder header(String name, String value) {
            checkName(name);
            return append(name, value);
        }

        /** Adds a header whose name is known to be valid, refusing a value that could split the response. */
        private Builder append(String name, String value) {
            ensureRoom(fieldSize(name, value));
            length = putField(head, length, name, value);
            return this;
        }

        /**
         * Finishes the response with a body. A null {@code contentType} sends the body without
         * {@code Content-Type}.
         */
        public Response body(String contentType, byte[] body) {
            if (contentType != null) {
                append(CONTENT_TYPE, contentType);
            }
            return finish(body);
        }

        public Response build() {
            return finish(NO_BODY);
        }

        /** The wire bytes in one array of their exact size: the body is copied once. */
        private Response finish(byte[] body) {
            if (sendsContentLength(status, body.length)) {
                ensureRoom(contentLengthSize(body.length));
                length = putContentLength(head, length, body.length);
            }
            ensureRoom(2);
            head[length++] = '\r';
            head[length++] = '\n';
            byte[] wire = Arrays.copyOf(head, length + body.length);
            System.arraycopy(body, 0, wire, length, body.length);
            return new Response(status, wire, length);
        }

        private void ensureRoom(int bytes) {
            if (length + bytes > head.length) {
                head = Arrays.copyOf(head, Math.max(head.length * 2, length + bytes));
            }
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
            for (String owned : ENGINE_OWNED) {
                if (owned.equalsIgnoreCase(name)) {
                    throw new IllegalArgumentException(name + " is set by the engine");
                }
            }
        }
    }
}
