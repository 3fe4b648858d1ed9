package dev.hotpath.loadgen.internal;

import io.netty.buffer.ByteBuf;

/**
 * Reads HTTP/1.1 responses off a connection's inbound bytes, resumable at any byte boundary: a state
 * machine (status line, header lines, a fixed-length or chunked body, trailers) that keeps what a
 * check needs in a {@link ResponseView} it owns and reuses. Strict, because a harness that guesses
 * would count a broken server as a fast one: a malformed status line or header, conflicting lengths,
 * both {@code Content-Length} and {@code Transfer-Encoding}, a body delimited only by the close, or a
 * head or body over its bound is a protocol error and ends the connection.
 *
 * <p>Interim 1xx responses are skipped. Costs nothing per response beyond copying the head and body
 * into the view's arrays, which grow to the largest seen and stay.
 */
public final class ResponseParser {
    /** Longest status line or header line accepted. */
    public static final int MAX_LINE = 16 * 1024;
    /** Largest body accepted. */
    public static final int MAX_BODY = 16 * 1024 * 1024;

    enum State { STATUS_LINE, HEADER_LINE, FIXED_BODY, CHUNK_SIZE, CHUNK_DATA, CHUNK_END, TRAILER_LINE }

    /** What {@link #parse} found. */
    public enum Result { NEED_MORE, RESPONSE, ERROR }

    private final ResponseView view = new ResponseView();
    private State state = State.STATUS_LINE;
    private long remaining;
    private boolean chunked;
    private String error;

    public ResponseView view() {
        return view;
    }

    /** Why the last {@link Result#ERROR} happened, with the state it happened in. */
    public String error() {
        return error;
    }

    /**
     * Consumes bytes of {@code in} until one whole response has been read ({@link Result#RESPONSE}: the
     * view holds it until the next call), the bytes run out, or the input is not HTTP.
     */
    public Result parse(ByteBuf in) {
        while (true) {
            switch (state) {
                case STATUS_LINE, HEADER_LINE, TRAILER_LINE, CHUNK_SIZE -> {
                    int lineEnd = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) '\n');
                    if (lineEnd < 0) {
                        return in.readableBytes() > MAX_LINE ? fail("line longer than " + MAX_LINE + " bytes") : Result.NEED_MORE;
                    }
                    int length = lineEnd - in.readerIndex();
                    if (length > MAX_LINE) {
                        return fail("line longer than " + MAX_LINE + " bytes");
                    }
                    if (length == 0 || in.getByte(lineEnd - 1) != '\r') {
                        return fail("line not ended by CRLF");
                    }
                    byte[] line = view.lineScratch(length - 1);
                    in.readBytes(line, 0, length - 1);
                    in.skipBytes(2);
                    Result result = onLine(line, length - 1);
                    if (result != null) {
                        return result;
                    }
                }
                case FIXED_BODY, CHUNK_DATA -> {
                    int take = (int) Math.min(remaining, in.readableBytes());
                    if (take == 0 && remaining > 0) {
                        return Result.NEED_MORE;
                    }
                    view.appendBody(in, take);
                    remaining -= take;
                    if (remaining > 0) {
                        return Result.NEED_MORE;
                    }
                    if (state == State.FIXED_BODY) {
                        return finish();
                    }
                    state = State.CHUNK_END;
                }
                case CHUNK_END -> {
                    if (in.readableBytes() < 2) {
                        return Result.NEED_MORE;
                    }
                    if (in.readByte() != '\r' || in.readByte() != '\n') {
                        return fail("chunk data not followed by CRLF");
                    }
                    state = State.CHUNK_SIZE;
                }
            }
        }
    }

    /** Handles one line of a line state; null to go on reading. */
    private Result onLine(byte[] line, int length) {
        switch (state) {
            case STATUS_LINE -> {
                return statusLine(line, length);
            }
            case HEADER_LINE -> {
                return length == 0 ? endOfHead() : header(line, length);
            }
            case CHUNK_SIZE -> {
                return chunkSize(line, length);
            }
            default -> {
                return length == 0 ? finish() : null; // trailer fields are read and ignored
            }
        }
    }

    private Result statusLine(byte[] line, int length) {
        if (length < 12 || !startsWith(line, "HTTP/1.1 ") && !startsWith(line, "HTTP/1.0 ")
            || !digit(line[9]) || !digit(line[10]) || !digit(line[11]) || length > 12 && line[12] != ' ') {
            return fail("malformed status line");
        }
        view.begin((line[9] - '0') * 100 + (line[10] - '0') * 10 + (line[11] - '0'), line[7] == '0');
        chunked = false;
        state = State.HEADER_LINE;
        return null;
    }

    private Result header(byte[] line, int length) {
        int colon = 0;
        while (colon < length && line[colon] != ':') {
            if (line[colon] == ' ' || line[colon] == '\t') {
                return fail("whitespace in a header name");
            }
            colon++;
        }
        if (colon == 0 || colon == length) {
            return fail("malformed header line");
        }
        int start = colon + 1;
        while (start < length && (line[start] == ' ' || line[start] == '\t')) {
            start++;
        }
        int end = length;
        while (end > start && (line[end - 1] == ' ' || line[end - 1] == '\t')) {
            end--;
        }
        if (nameIs(line, colon, "content-length")) {
            long value = parseDecimal(line, start, end);
            if (value < 0 || view.contentLength >= 0 && view.contentLength != value) {
                return fail("invalid or conflicting Content-Length");
            }
            view.contentLength = value;
        } else if (nameIs(line, colon, "transfer-encoding")) {
            if (!equalsIgnoreCase(line, start, end, "chunked") || chunked) {
                return fail("unsupported Transfer-Encoding");
            }
            chunked = true;
        } else if (nameIs(line, colon, "location")) {
            view.setLocation(line, start, end);
        } else if (nameIs(line, colon, "connection")) {
            view.closes |= equalsIgnoreCase(line, start, end, "close");
        }
        return null;
    }

    private Result endOfHead() {
        int status = view.status;
        if (chunked && view.contentLength >= 0) {
            return fail("both Content-Length and Transfer-Encoding");
        }
        if (status < 200) {
            state = State.STATUS_LINE; // interim response: the real one follows
            return null;
        }
        if (status == 204 || status == 304) {
            return finish();
        }
        if (chunked) {
            state = State.CHUNK_SIZE;
            return null;
        }
        if (view.contentLength < 0) {
            return fail("no Content-Length and not chunked: the body would end only with the connection");
        }
        if (view.contentLength > MAX_BODY) {
            return fail("body of " + view.contentLength + " bytes is over " + MAX_BODY);
        }
        remaining = view.contentLength;
        state = State.FIXED_BODY;
        return remaining == 0 ? finish() : null;
    }

    private Result chunkSize(byte[] line, int length) {
        int end = 0;
        long size = 0;
        while (end < length && line[end] != ';') {
            int d = Character.digit(line[end], 16);
            if (d < 0 || size > (MAX_BODY >> 4)) {
                return fail("malformed chunk size");
            }
            size = size * 16 + d;
            end++;
        }
        if (end == 0) {
            return fail("malformed chunk size");
        }
        if (size == 0) {
            state = State.TRAILER_LINE;
            return null;
        }
        if (view.bodyLength() + size > MAX_BODY) {
            return fail("body over " + MAX_BODY + " bytes");
        }
        remaining = size;
        state = State.CHUNK_DATA;
        return null;
    }

    private Result finish() {
        state = State.STATUS_LINE;
        return Result.RESPONSE;
    }

    private Result fail(String reason) {
        error = reason + " (in " + state + ")";
        return Result.ERROR;
    }

    private static boolean digit(byte b) {
        return b >= '0' && b <= '9';
    }

    private static boolean startsWith(byte[] line, String prefix) {
        for (int i = 0; i < prefix.length(); i++) {
            if (line[i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static boolean nameIs(byte[] line, int length, String lowerName) {
        return length == lowerName.length() && equalsIgnoreCase(line, 0, length, lowerName);
    }

    private static boolean equalsIgnoreCase(byte[] line, int start, int end, String lower) {
        if (end - start != lower.length()) {
            return false;
        }
        for (int i = 0; i < lower.length(); i++) {
            int b = line[start + i];
            if ((b >= 'A' && b <= 'Z' ? b + 32 : b) != lower.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static long parseDecimal(byte[] line, int start, int end) {
        if (start == end || end - start > 18) {
            return -1;
        }
        long value = 0;
        for (int i = start; i < end; i++) {
            if (!digit(line[i])) {
                return -1;
            }
            value = value * 10 + (line[i] - '0');
        }
        return value;
    }
}
