package dev.hotpath.http.internal;

import dev.hotpath.http.ServerLimits;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

/**
 * The resumable HTTP/1.1 request decoder of one connection: an explicit state machine over the
 * connection's inbound buffer. Call {@link #decode} whenever bytes arrive; it returns at once with
 * {@link Event#NEED_MORE} when the buffer ends mid-request and resumes where it stopped next time,
 * without rescanning what it has seen.
 *
 * <p>Protocol of the caller, per request: {@code decode} until {@link Event#HEAD} (the head is parsed
 * into the loop's {@link RequestHead}); then {@link #acceptBody} with the route's body limit; then
 * {@code decode} until {@link Event#REQUEST}; handle it; then {@link #finishRequest}, which consumes
 * the request's bytes. {@link Event#REJECTED} ends the connection: answer {@link #rejection()} and
 * close.
 *
 * <p>Nothing is consumed from the buffer before the request is complete, so every offset here is
 * relative to the buffer's reader index and survives the buffer being grown or copied. A body sent
 * with {@code Content-Length} is handed to the handler in place; a chunked body is copied, chunk by
 * chunk, into a buffer of its own. State per connection: a dozen fields, no arrays.
 */
public final class RequestDecoder {

    /** Where the decoder stands in the current request. */
    public enum State {
        READ_REQUEST_LINE, READ_HEADERS, AWAIT_BODY_DECISION, READ_FIXED_BODY, READ_CHUNK_SIZE,
        READ_CHUNK_DATA, READ_CHUNK_DATA_END, READ_TRAILERS, COMPLETE, REJECTED
    }

    /** What one call to {@link #decode} produced. */
    public enum Event { NEED_MORE, HEAD, REQUEST, REJECTED }

    /**
     * Empty lines skipped before a request line (RFC 9112 §2.2 asks for at least one; some clients
     * send a CRLF after a body). Bounded, because a connection fed only empty lines would otherwise
     * never begin a request, so neither the request deadline nor the line limit would ever apply.
     */
    static final int MAX_EMPTY_LINES = 4;

    private final ServerLimits limits;
    private State state = State.READ_REQUEST_LINE;
    /** Empty lines skipped since the last request line. */
    private int emptyLines;
    private Rejection rejection;
    /** Offset of the first byte of the line being read. */
    private int lineStart;
    /** Offset up to which the current line (or chunk) has been scanned. */
    private int scan;
    private int requestLineEnd;
    private int headLength;
    private int fields;
    private long contentLength;
    private boolean chunked;
    private long bodyLimit;
    private long chunkRemaining;
    private int trailerStart;
    private ByteBuf chunkedBody;

    public RequestDecoder(ServerLimits limits) {
        this.limits = limits;
    }

    public State state() {
        return state;
    }

    /** Why the request was rejected; only after {@link Event#REJECTED}. */
    public Rejection rejection() {
        return rejection;
    }

    /** Whether a request has begun: some of its bytes are in the buffer or consumed into the body. */
    public boolean inRequest(ByteBuf in) {
        return state != State.READ_REQUEST_LINE || in.isReadable();
    }

    /** Advances over {@code in} as far as its bytes allow. */
    public Event decode(ByteBuf in, RequestHead head, Object owner) {
        while (true) {
            switch (state) {
                case READ_REQUEST_LINE -> {
                    if (!readRequestLine(in)) {
                        return pause();
                    }
                }
                case READ_HEADERS -> {
                    if (!readHeaders(in)) {
                        return pause();
                    }
                    Rejection r = HeadParser.parse(in, in.readerIndex(), in.readerIndex() + requestLineEnd,
                        in.readerIndex() + headLength, head, owner);
                    if (r != null) {
                        return reject(r);
                    }
                    contentLength = head.contentLength;
                    chunked = head.chunked;
                    state = State.AWAIT_BODY_DECISION;
                    return Event.HEAD;
                }
                case AWAIT_BODY_DECISION -> throw new IllegalStateException("acceptBody was not called");
                case READ_FIXED_BODY -> {
                    if (in.readableBytes() < headLength + contentLength) {
                        return Event.NEED_MORE;
                    }
                    state = State.COMPLETE;
                }
                case READ_CHUNK_SIZE -> {
                    if (!readChunkSize(in)) {
                        return pause();
                    }
                }
                case READ_CHUNK_DATA -> {
                    if (!readChunkData(in)) {
                        return Event.NEED_MORE;
                    }
                }
                case READ_CHUNK_DATA_END -> {
                    if (!readChunkDataEnd(in)) {
                        return pause();
                    }
                }
                case READ_TRAILERS -> {
                    if (!readTrailers(in)) {
                        return pause();
                    }
                }
                case COMPLETE -> {
                    return Event.REQUEST;
                }
                case REJECTED -> {
                    return Event.REJECTED;
                }
            }
        }
    }

    /**
     * Decides the body after {@link Event#HEAD}: {@code maxBodyBytes} is the matched route's limit.
     *
     * @return {@link Rejection#BODY_TOO_LARGE} when a declared length exceeds it, else {@code null}
     */
    public Rejection acceptBody(long maxBodyBytes) {
        if (state != State.AWAIT_BODY_DECISION) {
            throw new IllegalStateException("no head awaits a body decision, state " + state);
        }
        bodyLimit = maxBodyBytes;
        if (contentLength > maxBodyBytes) {
            reject(Rejection.BODY_TOO_LARGE);
            return rejection;
        }
        scan = headLength;
        if (chunked) {
            state = State.READ_CHUNK_SIZE;
        } else {
            state = contentLength > 0 ? State.READ_FIXED_BODY : State.COMPLETE;
        }
        return null;
    }

    /** Whether the body has not started to arrive: the condition for an interim {@code 100 Continue}. */
    public boolean awaitingBody(ByteBuf in) {
        return (state == State.READ_FIXED_BODY || state == State.READ_CHUNK_SIZE)
            && in.readableBytes() == headLength;
    }

    /** Parses the current request's head again, for a caller whose loop-shared head was reused meanwhile. */
    public void reparse(ByteBuf in, RequestHead head, Object owner) {
        int start = in.readerIndex();
        Rejection r = HeadParser.parse(in, start, start + requestLineEnd, start + headLength, head, owner);
        if (r != null) {
            throw new IllegalStateException("a head accepted once was rejected on reparse: " + r);
        }
    }

    /** Points {@code head} at the complete body; only after {@link Event#REQUEST}. */
    public void attachBody(ByteBuf in, RequestHead head) {
        if (chunked) {
            if (chunkedBody != null) {
                head.attachBody(chunkedBody, chunkedBody.readerIndex(), chunkedBody.readableBytes());
            }
        } else if (contentLength > 0) {
            head.attachBody(in, in.readerIndex() + headLength, (int) contentLength);
        }
    }

    /** Consumes the request just handled and gets ready for the next one. */
    public void finishRequest(ByteBuf in) {
        if (state != State.COMPLETE) {
            throw new IllegalStateException("request not complete, state " + state);
        }
        in.skipBytes(chunked ? scan : headLength + (int) Math.max(contentLength, 0));
        releaseBody();
        state = State.READ_REQUEST_LINE;
        lineStart = 0;
        scan = 0;
    }

    /** Frees the chunked-body buffer, if any; call when the connection closes. */
    public void releaseBody() {
        if (chunkedBody != null) {
            chunkedBody.release();
            chunkedBody = null;
        }
    }

    private Event pause() {
        return state == State.REJECTED ? Event.REJECTED : Event.NEED_MORE;
    }

    private Event reject(Rejection r) {
        rejection = r;
        state = State.REJECTED;
        return Event.REJECTED;
    }

    /**
     * RFC 9112 §2.2: up to {@link #MAX_EMPTY_LINES} empty lines before a request line are skipped; the
     * line must end in CRLF.
     */
    private boolean readRequestLine(ByteBuf in) {
        while (true) {
            int start = in.readerIndex();
            int lf = in.indexOf(start + scan, in.writerIndex(), Ascii.LF);
            if (lf < 0) {
                scan = in.readableBytes();
                if (scan > limits.maxRequestLineBytes() + 1) {
                    reject(Rejection.REQUEST_LINE_TOO_LONG);
                }
                return false;
            }
            int lineEnd = lf - 1 - start;
            if (lineEnd < 0 || in.getByte(lf - 1) != Ascii.CR) {
                reject(Rejection.BARE_LF);
                return false;
            }
            if (lineEnd == 0) {
                if (++emptyLines > MAX_EMPTY_LINES) {
                    reject(Rejection.TOO_MANY_EMPTY_LINES);
                    return false;
                }
                in.skipBytes(2);
                scan = 0;
                continue;
            }
            if (lineEnd > limits.maxRequestLineBytes()) {
                reject(Rejection.REQUEST_LINE_TOO_LONG);
                return false;
            }
            emptyLines = 0;
            requestLineEnd = lineEnd;
            lineStart = lineEnd + 2;
            scan = lineStart;
            fields = 0;
            state = State.READ_HEADERS;
            return true;
        }
    }

    /** Finds the empty line that ends the head, counting fields and bytes against the limits. */
    private boolean readHeaders(ByteBuf in) {
        int start = in.readerIndex();
        int blockStart = requestLineEnd + 2;
        while (true) {
            int lf = in.indexOf(start + scan, in.writerIndex(), Ascii.LF);
            if (lf < 0) {
                scan = in.readableBytes();
                if (scan - blockStart > limits.maxHeaderBytes()) {
                    reject(Rejection.HEADERS_TOO_LARGE);
                }
                return false;
            }
            int at = lf - start;
            if (at == lineStart || in.getByte(lf - 1) != Ascii.CR) {
                reject(Rejection.BARE_LF);
                return false;
            }
            if (at + 1 - blockStart > limits.maxHeaderBytes()) {
                reject(Rejection.HEADERS_TOO_LARGE);
                return false;
            }
            if (at - 1 == lineStart) {
                headLength = at + 1;
                return true;
            }
            if (++fields > limits.maxHeaderFields()) {
                reject(Rejection.TOO_MANY_HEADERS);
                return false;
            }
            lineStart = at + 1;
            scan = lineStart;
        }
    }

    /** {@code chunk-size [ chunk-ext ] CRLF}: hex digits, extensions checked for characters and ignored. */
    private boolean readChunkSize(ByteBuf in) {
        int start = in.readerIndex();
        int lineFrom = start + scan;
        int lf = in.indexOf(lineFrom, in.writerIndex(), Ascii.LF);
        if (lf < 0) {
            if (in.writerIndex() - lineFrom > ServerLimits.MAX_CHUNK_LINE_BYTES) {
                reject(Rejection.INVALID_CHUNK);
            }
            return false;
        }
        if (lf == lineFrom || in.getByte(lf - 1) != Ascii.CR) {
            reject(Rejection.BARE_LF);
            return false;
        }
        int lineTo = lf - 1;
        long size = 0;
        int i = lineFrom;
        for (; i < lineTo; i++) {
            int digit = Ascii.hexValue(in.getByte(i));
            if (digit < 0) {
                break;
            }
            size = size < (1L << 40) ? size * 16 + digit : Long.MAX_VALUE;
        }
        if (i == lineFrom || !validChunkExtension(in, i, lineTo)) {
            reject(Rejection.INVALID_CHUNK);
            return false;
        }
        long received = chunkedBody == null ? 0 : chunkedBody.readableBytes();
        if (size > bodyLimit - received) {
            reject(Rejection.BODY_TOO_LARGE);
            return false;
        }
        scan = lf + 1 - start;
        if (size == 0) {
            lineStart = scan;
            trailerStart = scan;
            fields = 0;
            state = State.READ_TRAILERS;
        } else {
            chunkRemaining = size;
            state = State.READ_CHUNK_DATA;
        }
        return true;
    }

    private static boolean validChunkExtension(ByteBuf in, int from, int to) {
        if (from == to) {
            return true;
        }
        byte first = in.getByte(from);
        if (first != ';' && first != Ascii.SP && first != Ascii.HTAB) {
            return false;
        }
        for (int i = from; i < to; i++) {
            byte b = in.getByte(i);
            if (b == Ascii.CR || !Ascii.isFieldValueChar(b)) {
                return false;
            }
        }
        return true;
    }

    private boolean readChunkData(ByteBuf in) {
        int available = in.readableBytes() - scan;
        if (available <= 0) {
            return false;
        }
        int n = (int) Math.min(available, chunkRemaining);
        if (chunkedBody == null) {
            chunkedBody = in.alloc().heapBuffer((int) Math.min(bodyLimit, Math.max(n, 256)));
        }
        chunkedBody.writeBytes(in, in.readerIndex() + scan, n);
        scan += n;
        chunkRemaining -= n;
        if (chunkRemaining > 0) {
            return false;
        }
        state = State.READ_CHUNK_DATA_END;
        return true;
    }

    private boolean readChunkDataEnd(ByteBuf in) {
        int at = in.readerIndex() + scan;
        int available = in.writerIndex() - at;
        if (available >= 1 && in.getByte(at) != Ascii.CR) {
            reject(Rejection.INVALID_CHUNK);
            return false;
        }
        if (available < 2) {
            return false;
        }
        if (in.getByte(at + 1) != Ascii.LF) {
            reject(Rejection.BARE_CR);
            return false;
        }
        scan += 2;
        state = State.READ_CHUNK_SIZE;
        return true;
    }

    /** Trailer fields after the last chunk: validated like header fields, counted against the same limits, ignored. */
    private boolean readTrailers(ByteBuf in) {
        int start = in.readerIndex();
        while (true) {
            int lf = in.indexOf(start + scan, in.writerIndex(), Ascii.LF);
            if (lf < 0) {
                scan = in.readableBytes();
                if (scan - trailerStart > limits.maxHeaderBytes()) {
                    reject(Rejection.HEADERS_TOO_LARGE);
                }
                return false;
            }
            int at = lf - start;
            if (at == lineStart || in.getByte(lf - 1) != Ascii.CR) {
                reject(Rejection.BARE_LF);
                return false;
            }
            if (at - 1 == lineStart) {
                scan = at + 1;
                state = State.COMPLETE;
                return true;
            }
            if (++fields > limits.maxHeaderFields()) {
                reject(Rejection.TOO_MANY_HEADERS);
                return false;
            }
            // Trailers are rare: a copy of the line keeps one field parser for heads and trailers.
            byte[] line = ByteBufUtil.getBytes(in, start + lineStart, lf - 1 - (start + lineStart));
            Rejection r = HeadParser.parseField(line, 0, line.length, null);
            if (r != null) {
                reject(r);
                return false;
            }
            lineStart = at + 1;
            scan = lineStart;
        }
    }
}
