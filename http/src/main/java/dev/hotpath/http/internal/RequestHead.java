package dev.hotpath.http.internal;

import dev.hotpath.http.HeaderName;
import dev.hotpath.http.Method;
import dev.hotpath.http.Request;
import dev.hotpath.http.ServerLimits;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The parsed head of one request: a copy of its bytes in {@link #bytes} and offsets into that copy.
 * One instance per event loop is reused for every request of every connection on that loop, so
 * parsing allocates nothing and an idle connection carries none of this state. The body is not
 * copied: it stays in the connection's buffer ({@link #bodyBuffer}).
 *
 * <p>Invariant: the instance holds the request that {@link #isParseOf} names (owner, source buffer,
 * index) until the next parse on this loop; a connection whose request was parsed before another
 * connection's must parse it again.
 */
public final class RequestHead implements Request {
    static final int MAX_PATH_PARAMS = 8;
    private static final byte[] CONTENT_TYPE = HeaderName.CONTENT_TYPE.lowerCaseBytes();
    private static final byte[] APPLICATION_JSON = "application/json".getBytes(StandardCharsets.US_ASCII);

    /** The head bytes; capacity for the largest head the limits allow. */
    final byte[] bytes;
    int length;
    private ByteBuf source;
    private Object owner;
    private int start;

    Method method;
    boolean http10;
    boolean asteriskTarget;
    int pathStart;
    int pathEnd;
    int queryStart;
    int queryEnd;

    final int[] nameStart;
    final int[] nameEnd;
    final int[] valueStart;
    final int[] valueEnd;
    int fieldCount;
    /** Where the field line parsed last ends (its CR): the parser's cursor, found while scanning the value. */
    int fieldLineEnd;

    long contentLength;
    boolean chunked;
    boolean keepAlive;
    boolean expectContinue;

    final int[] paramStart = new int[MAX_PATH_PARAMS];
    final int[] paramEnd = new int[MAX_PATH_PARAMS];
    int paramCount;

    ByteBuf bodyBuffer;
    int bodyIndex;
    int bodyLength;

    public RequestHead(ServerLimits limits) {
        int maxFields = limits.maxHeaderFields();
        bytes = new byte[limits.maxRequestLineBytes() + limits.maxHeaderBytes() + 2];
        nameStart = new int[maxFields];
        nameEnd = new int[maxFields];
        valueStart = new int[maxFields];
        valueEnd = new int[maxFields];
    }

    /** Starts a parse of {@code source[start, start + length)}: copies those bytes. */
    void reset(ByteBuf source, Object owner, int start, int length) {
        this.source = source;
        this.owner = owner;
        this.start = start;
        this.length = length;
        source.getBytes(start, bytes, 0, length);
        method = null;
        http10 = false;
        asteriskTarget = false;
        queryStart = -1;
        queryEnd = -1;
        fieldCount = 0;
        contentLength = -1;
        chunked = false;
        keepAlive = false;
        expectContinue = false;
        paramCount = 0;
        bodyBuffer = null;
        bodyLength = 0;
    }

    /** Whether this instance holds the parse of {@code owner}'s request starting at {@code start} of {@code buffer}. */
    public boolean isParseOf(Object owner, ByteBuf source, int start) {
        return this.owner == owner && this.source == source && this.start == start;
    }

    /** Forgets the owner, so a later {@link #isParseOf} check cannot match stale offsets. */
    public void release() {
        owner = null;
        source = null;
        bodyBuffer = null;
    }

    void attachBody(ByteBuf bodyBuffer, int index, int length) {
        this.bodyBuffer = bodyBuffer;
        this.bodyIndex = index;
        this.bodyLength = length;
    }

    public boolean isAsteriskTarget() {
        return asteriskTarget;
    }

    public boolean keepAlive() {
        return keepAlive;
    }

    public boolean expectsContinue() {
        return expectContinue;
    }

    @Override
    public Method method() {
        return method;
    }

    @Override
    public boolean isHttp10() {
        return http10;
    }

    @Override
    public String path() {
        return pathEnd == pathStart ? "/" : ascii(pathStart, pathEnd);
    }

    @Override
    public String query() {
        return queryStart < 0 ? null : ascii(queryStart, queryEnd);
    }

    @Override
    public int queryLength() {
        return queryStart < 0 ? -1 : queryEnd - queryStart;
    }

    @Override
    public byte queryByte(int offset) {
        if (queryStart < 0 || offset < 0 || offset >= queryEnd - queryStart) {
            throw new IndexOutOfBoundsException(offset);
        }
        return bytes[queryStart + offset];
    }

    @Override
    public int pathParamCount() {
        return paramCount;
    }

    @Override
    public String pathParam(int index) {
        checkParam(index);
        return ascii(paramStart[index], paramEnd[index]);
    }

    @Override
    public int pathParamLength(int index) {
        checkParam(index);
        return paramEnd[index] - paramStart[index];
    }

    @Override
    public byte pathParamByte(int index, int offset) {
        checkParam(index);
        int at = paramStart[index] + offset;
        if (offset < 0 || at >= paramEnd[index]) {
            throw new IndexOutOfBoundsException(offset);
        }
        return bytes[at];
    }

    @Override
    public String header(HeaderName name) {
        int field = findField(name.lowerCaseBytes());
        return field < 0 ? null : new String(bytes, valueStart[field], valueEnd[field] - valueStart[field],
            StandardCharsets.ISO_8859_1);
    }

    @Override
    public int header(HeaderName name, byte[] into) {
        int field = findField(name.lowerCaseBytes());
        if (field < 0) {
            return -1;
        }
        int length = valueEnd[field] - valueStart[field];
        System.arraycopy(bytes, valueStart[field], into, 0, Math.min(length, into.length));
        return length;
    }

    @Override
    public int bodyLength() {
        return bodyLength;
    }

    @Override
    public byte[] bodyBytes() {
        byte[] copy = new byte[bodyLength];
        if (bodyLength > 0) {
            bodyBuffer.getBytes(bodyIndex, copy);
        }
        return copy;
    }

    /**
     * Read in place: the field's string and a substring, as this was first written, were about 60 bytes
     * on every request that declares its type (async-profiler under the users app's creates).
     */
    @Override
    public boolean declaresJsonOrNothing() {
        int field = findField(CONTENT_TYPE);
        if (field < 0) {
            return true;
        }
        int from = valueStart[field];
        int to = valueEnd[field];
        for (int i = from; i < to; i++) {
            if (bytes[i] == ';') {
                to = i;
                break;
            }
        }
        while (from < to && (bytes[from] & 0xFF) <= ' ') { // as String.trim()
            from++;
        }
        while (to > from && (bytes[to - 1] & 0xFF) <= ' ') {
            to--;
        }
        return Ascii.equalsIgnoreCase(bytes, from, to, APPLICATION_JSON);
    }

    @Override
    public void copyBody(byte[] into) {
        Objects.checkFromIndexSize(0, bodyLength, into.length);
        if (bodyLength > 0) {
            bodyBuffer.getBytes(bodyIndex, into, 0, bodyLength);
        }
    }

    /** Index of the first field named {@code lowerCaseName}, or -1. */
    int findField(byte[] lowerCaseName) {
        for (int i = 0; i < fieldCount; i++) {
            if (Ascii.equalsIgnoreCase(bytes, nameStart[i], nameEnd[i], lowerCaseName)) {
                return i;
            }
        }
        return -1;
    }

    private void checkParam(int index) {
        if (index < 0 || index >= paramCount) {
            throw new IndexOutOfBoundsException("path parameter " + index + " of " + paramCount);
        }
    }

    private String ascii(int from, int to) {
        return new String(bytes, from, to - from, StandardCharsets.US_ASCII);
    }
}
