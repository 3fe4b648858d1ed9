package dev.hotpath.loadgen.internal;

import dev.hotpath.loadgen.Answer;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The parts of one response the generator looks at: the {@link Answer} a check sees, and whether the
 * server closes after it. Owned by a {@link ResponseParser} and overwritten by the next response.
 */
public final class ResponseView implements Answer {
    int status;
    boolean closes;
    long contentLength;
    // Empty until needed and then as large as the largest seen: one connection per virtual user makes
    // these a measurable part of a user's cost (bench/loadgen/users-memory.sh).
    private byte[] line = new byte[0];
    private byte[] location = new byte[0];
    private int locationLength = -1;
    private byte[] body = new byte[0];
    private int bodyLength;

    void begin(int status, boolean http10) {
        this.status = status;
        closes = http10; // an HTTP/1.0 answer closes unless it says otherwise; we never ask it to stay
        contentLength = -1;
        locationLength = -1;
        bodyLength = 0;
    }

    byte[] lineScratch(int length) {
        if (line.length < length) {
            line = new byte[Math.max(length, line.length * 2)];
        }
        return line;
    }

    void setLocation(byte[] from, int start, int end) {
        int length = end - start;
        if (location.length < length) {
            location = new byte[Math.max(length, location.length * 2)];
        }
        System.arraycopy(from, start, location, 0, length);
        locationLength = length;
    }

    void appendBody(ByteBuf in, int length) {
        if (body.length < bodyLength + length) {
            body = Arrays.copyOf(body, Math.max(bodyLength + length, body.length * 2));
        }
        in.readBytes(body, bodyLength, length);
        bodyLength += length;
    }

    @Override
    public int status() {
        return status;
    }

    /** Whether the server said it closes the connection after this response. */
    public boolean closes() {
        return closes;
    }

    @Override
    public boolean locationEquals(byte[] expected) {
        return locationLength == expected.length && Arrays.equals(location, 0, locationLength, expected, 0, expected.length);
    }

    @Override
    public String location() {
        return locationLength < 0 ? null : new String(location, 0, locationLength, StandardCharsets.ISO_8859_1);
    }

    @Override
    public boolean bodyEquals(byte[] expected) {
        return Arrays.equals(body, 0, bodyLength, expected, 0, expected.length);
    }

    @Override
    public byte[] bodyArray() {
        return body;
    }

    @Override
    public int bodyLength() {
        return bodyLength;
    }

    @Override
    public String bodyText(int max) {
        String text = new String(body, 0, bodyLength, StandardCharsets.UTF_8);
        return text.length() <= max ? text : text.substring(0, max) + "...";
    }
}
