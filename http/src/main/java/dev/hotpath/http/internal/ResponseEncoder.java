package dev.hotpath.http.internal;

import dev.hotpath.http.Response;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Writes a {@link Response} into an outbound buffer: its pre-encoded head, then {@code Date},
 * {@code Content-Length} and {@code Connection} as this exchange needs them, then the body unless the
 * request was {@code HEAD}. Several responses of a read batch go into the same buffer, flushed once.
 * No allocation: the length is written digit by digit.
 */
public final class ResponseEncoder {
    private static final byte[] CONTENT_LENGTH = "Content-Length: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CONNECTION_CLOSE = "Connection: close\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CONNECTION_KEEP_ALIVE = "Connection: keep-alive\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final short CRLF = ('\r' << 8) | '\n';

    private ResponseEncoder() {
    }

    /**
     * Encodes one response.
     *
     * @param headRequest the request was HEAD: same headers, no body
     * @param close the connection closes after this response
     * @param http10KeepAlive the request was HTTP/1.0 with keep-alive, which must be confirmed
     */
    public static void encode(ByteBuf out, Response response, byte[] dateLine, boolean headRequest,
                              boolean close, boolean http10KeepAlive) {
        out.writeBytes(response.encodedHead());
        out.writeBytes(dateLine);
        int status = response.status();
        byte[] body = response.body();
        if (status >= 200 && status != 204) {
            out.writeBytes(CONTENT_LENGTH);
            writeDecimal(out, body.length);
            out.writeShort(CRLF);
        }
        if (close) {
            out.writeBytes(CONNECTION_CLOSE);
        } else if (http10KeepAlive) {
            out.writeBytes(CONNECTION_KEEP_ALIVE);
        }
        out.writeShort(CRLF);
        if (!headRequest && body.length > 0) {
            out.writeBytes(body);
        }
    }

    /** The interim response to {@code Expect: 100-continue} (RFC 9110 §10.1.1). */
    public static void encodeContinue(ByteBuf out) {
        out.writeBytes(CONTINUE);
    }

    static void writeDecimal(ByteBuf out, int value) {
        if (value < 10) {
            out.writeByte('0' + value);
            return;
        }
        int digits = 1;
        for (int v = value / 10; v > 0; v /= 10) {
            digits++;
        }
        int at = out.writerIndex() + digits;
        out.ensureWritable(digits);
        for (int v = value; v > 0; v /= 10) {
            out.setByte(--at, '0' + v % 10);
        }
        out.writerIndex(out.writerIndex() + digits);
    }
}
