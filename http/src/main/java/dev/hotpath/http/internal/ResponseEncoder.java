package dev.hotpath.http.internal;

import dev.hotpath.http.BodySink;
import dev.hotpath.http.ContentType;
import dev.hotpath.http.HeaderArena;
import dev.hotpath.http.Response;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Writes a {@link Response} into an outbound buffer in two copies: the status line with the current
 * {@code Date} (from {@link HttpDate}, encoded once per second for each status in use), then the response's
 * pre-encoded headers, length and body (headers only for {@code HEAD}). A {@code Connection} line goes
 * between them when the connection closes or an HTTP/1.0 keep-alive must be confirmed. Several
 * responses of a read batch share one buffer, flushed once. Nothing is allocated.
 *
 * <p>Why two copies: each {@code writeBytes} carries a fixed cost (bounds and capacity checks, an
 * unsafe copy setup) that dominated the encoding of small responses when it was six writes per
 * response (ResponseEncoderBenchmark; docs/BENCHMARKS.md).
 */
public final class ResponseEncoder {
    private static final byte[] CONNECTION_CLOSE = "Connection: close\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CONNECTION_KEEP_ALIVE = "Connection: keep-alive\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] LOCATION = "Location: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] EMPTY_BODY = "\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CONTENT_LENGTH = "Content-Length: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] END_OF_HEAD = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private ResponseEncoder() {
    }

    /**
     * Encodes one response.
     *
     * @param date the status lines with the current {@code Date}
     * @param headRequest the request was HEAD: same headers, no body
     * @param close the connection closes after this response
     * @param http10KeepAlive the request was HTTP/1.0 with keep-alive, which must be confirmed
     */
    public static void encode(ByteBuf out, Response response, HttpDate date, boolean headRequest,
                              boolean close, boolean http10KeepAlive) {
        encode(out, response, date, headRequest, close, http10KeepAlive, null);
    }

    /** {@link #encode} with the headers a filter chain added ({@code added} may be null: none). */
    static void encode(ByteBuf out, Response response, HttpDate date, boolean headRequest,
                       boolean close, boolean http10KeepAlive, FilterExchange added) {
        writeStatusLine(out, response.status(), date, close, http10KeepAlive, added);
        byte[] wire = response.wire();
        out.writeBytes(wire, 0, headRequest ? response.headLength() : wire.length);
    }

    /**
     * Encodes a redirect to a value of {@code arena}: the same bytes as {@link Response#redirect}, in
     * four copies (status line, {@code Location: }, the value, the empty body), none of them allocated.
     * HEAD gets the same bytes, as the response has no body.
     */
    public static void encodeRedirect(ByteBuf out, int status, HeaderArena arena, long location, HttpDate date,
                                      boolean close, boolean http10KeepAlive) {
        encodeRedirect(out, status, arena, location, date, close, http10KeepAlive, null);
    }

    /** {@link #encodeRedirect} with the headers a filter chain added ({@code added} may be null: none). */
    static void encodeRedirect(ByteBuf out, int status, HeaderArena arena, long location, HttpDate date,
                               boolean close, boolean http10KeepAlive, FilterExchange added) {
        writeStatusLine(out, status, date, close, http10KeepAlive, added);
        out.writeBytes(LOCATION);
        out.writeBytes(arena.array(location), arena.offset(location), arena.length(location));
        out.writeBytes(EMPTY_BODY);
    }

    /**
     * Encodes the head of an answer whose body follows from the handler ({@code length} bytes): the
     * same fields, in the same order, as {@link Response#of} would hold, so a streamed answer and a
     * built one are the same bytes.
     */
    static void encodeStreamedHead(ByteBuf out, int status, ContentType type, int length, HttpDate date,
                                   boolean close, boolean http10KeepAlive, FilterExchange added) {
        writeStatusLine(out, status, date, close, http10KeepAlive, added);
        out.writeBytes(type.field());
        out.writeBytes(CONTENT_LENGTH);
        writeDecimal(out, length, BodySink.decimalLength(length));
        out.writeBytes(END_OF_HEAD);
    }

    /** Writes {@code value}'s {@code digits} decimal digits at {@code out}'s writer index, without a string. */
    static void writeDecimal(ByteBuf out, long value, int digits) {
        out.ensureWritable(digits);
        int start = out.writerIndex();
        for (int at = start + digits - 1; at >= start; at--) {
            out.setByte(at, (int) ('0' + value % 10));
            value /= 10;
        }
        out.writerIndex(start + digits);
    }

    private static void writeStatusLine(ByteBuf out, int status, HttpDate date, boolean close, boolean http10KeepAlive,
                                        FilterExchange added) {
        out.writeBytes(date.statusLine(status));
        if (close) {
            out.writeBytes(CONNECTION_CLOSE);
        } else if (http10KeepAlive) {
            out.writeBytes(CONNECTION_KEEP_ALIVE);
        }
        if (added != null && added.headerLength() > 0) {
            out.writeBytes(added.headerBytes(), 0, added.headerLength());
        }
    }

    /** The interim response to {@code Expect: 100-continue} (RFC 9110 §10.1.1). */
    public static void encodeContinue(ByteBuf out) {
        out.writeBytes(CONTINUE);
    }
}
