package dev.hotpath.http.internal;

import dev.hotpath.http.Method;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Parses and validates a complete request head (request line and header fields) into a
 * {@link RequestHead}. The {@link RequestDecoder} calls it once it has found the empty line that ends
 * the head, having already checked that every line ends in CRLF and that the limits hold; this class
 * checks everything else RFC 9112 asks of a head, strictly, and answers with the first
 * {@link Rejection} it meets, or {@code null} when the head is sound.
 *
 * <p>Cost: one pass over the head bytes, no allocation.
 */
public final class HeadParser {
    private static final Method[] METHODS = Method.values();
    private static final byte[][] METHOD_NAMES;
    private static final byte[] HOST = Ascii.lowerCaseBytes("host");
    private static final byte[] CONTENT_LENGTH = Ascii.lowerCaseBytes("content-length");
    private static final byte[] TRANSFER_ENCODING = Ascii.lowerCaseBytes("transfer-encoding");
    private static final byte[] CONNECTION = Ascii.lowerCaseBytes("connection");
    private static final byte[] EXPECT = Ascii.lowerCaseBytes("expect");
    private static final byte[] CONTENT_TYPE = Ascii.lowerCaseBytes("content-type");
    private static final byte[] AUTHORIZATION = Ascii.lowerCaseBytes("authorization");
    private static final byte[] CHUNKED = Ascii.lowerCaseBytes("chunked");
    private static final byte[] CLOSE = Ascii.lowerCaseBytes("close");
    private static final byte[] KEEP_ALIVE = Ascii.lowerCaseBytes("keep-alive");
    private static final byte[] CONTINUE = Ascii.lowerCaseBytes("100-continue");
    private static final byte[] HTTP_SCHEME = Ascii.lowerCaseBytes("http://");
    private static final byte[] HTTPS_SCHEME = Ascii.lowerCaseBytes("https://");
    private static final byte[] HTTP_1_1 = "HTTP/1.1".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HTTP_1_0 = "HTTP/1.0".getBytes(StandardCharsets.US_ASCII);
    /** More digits than this cannot be a body we accept; the value is clamped rather than overflowing. */
    private static final int MAX_CONTENT_LENGTH_DIGITS = 18;

    static {
        METHOD_NAMES = new byte[METHODS.length][];
        for (Method m : METHODS) {
            METHOD_NAMES[m.ordinal()] = m.name().getBytes(StandardCharsets.US_ASCII);
        }
    }

    private HeadParser() {
    }

    /**
     * Copies the head {@code in[start, headEnd)} into {@code head}'s array and parses it there: one
     * bulk copy, then plain array reads, instead of a bounds-checked buffer read per byte.
     *
     * @param requestLineEnd index of the CR that ends the request line
     * @param headEnd index just after the LF of the empty line that ends the head
     */
    public static Rejection parse(ByteBuf in, int start, int requestLineEnd, int headEnd, RequestHead head,
                                  Object owner) {
        head.reset(in, owner, start, headEnd - start);
        byte[] buf = head.bytes;
        Rejection rejection = parseRequestLine(buf, 0, requestLineEnd - start, head);
        if (rejection != null) {
            return rejection;
        }
        int hosts = 0;
        boolean contentType = false;
        boolean authorization = false;
        boolean transferEncoding = false;
        boolean closeRequested = false;
        boolean keepAliveRequested = false;
        int lineStart = requestLineEnd - start + 2;
        int blockEnd = headEnd - start - 2;
        while (lineStart < blockEnd) {
            rejection = parseField(buf, lineStart, blockEnd, head);
            if (rejection != null) {
                return rejection;
            }
            int field = head.fieldCount - 1;
            int nameStart = head.nameStart[field];
            int nameEnd = head.nameEnd[field];
            int valueStart = head.valueStart[field];
            int valueEnd = head.valueEnd[field];
            lineStart = head.fieldLineEnd + 2;
            switch (nameEnd - nameStart) {
                case 4 -> {
                    if (Ascii.equalsIgnoreCase(buf, nameStart, nameEnd, HOST)) {
                        if (++hosts > 1) {
                            return Rejection.DUPLICATE_HOST;
                        }
                        if (!isHost(buf, valueStart, valueEnd)) {
                            return Rejection.INVALID_HOST;
                        }
                    }
                }
                case 6 -> {
                    if (Ascii.equalsIgnoreCase(buf, nameStart, nameEnd, EXPECT)) {
                        if (!Ascii.equalsIgnoreCase(buf, valueStart, valueEnd, CONTINUE)) {
                            return Rejection.EXPECTATION_FAILED;
                        }
                        head.expectContinue = !head.http10;
                    }
                }
                case 10 -> {
                    if (Ascii.equalsIgnoreCase(buf, nameStart, nameEnd, CONNECTION)) {
                        int options = connectionOptions(buf, valueStart, valueEnd);
                        closeRequested |= (options & OPTION_CLOSE) != 0;
                        keepAliveRequested |= (options & OPTION_KEEP_ALIVE) != 0;
                    }
                }
                case 12 -> {
                    if (Ascii.equalsIgnoreCase(buf, nameStart, nameEnd, CONTENT_TYPE)) {
                        if (contentType) {
                            return Rejection.DUPLICATE_SINGLE_FIELD;
                        }
                        contentType = true;
                    }
                }
                case 13 -> {
                    if (Ascii.equalsIgnoreCase(buf, nameStart, nameEnd, AUTHORIZATION)) {
                        if (authorization) {
                            return Rejection.DUPLICATE_SINGLE_FIELD;
                        }
                        authorization = true;
                    }
                }
                case 14 -> {
                    if (Ascii.equalsIgnoreCase(buf, nameStart, nameEnd, CONTENT_LENGTH)) {
                        if (head.contentLength >= 0) {
                            return Rejection.DUPLICATE_CONTENT_LENGTH;
                        }
                        head.contentLength = parseContentLength(buf, valueStart, valueEnd);
                        if (head.contentLength < 0) {
                            return Rejection.INVALID_CONTENT_LENGTH;
                        }
                    }
                }
                case 17 -> {
                    if (Ascii.equalsIgnoreCase(buf, nameStart, nameEnd, TRANSFER_ENCODING)) {
                        // A second field would add a second coding; "chunked" alone is all we decode.
                        if (transferEncoding || !Ascii.equalsIgnoreCase(buf, valueStart, valueEnd, CHUNKED)) {
                            return Rejection.UNSUPPORTED_TRANSFER_CODING;
                        }
                        transferEncoding = true;
                    }
                }
                default -> { }
            }
        }
        if (transferEncoding) {
            if (head.contentLength >= 0) {
                return Rejection.CONTENT_LENGTH_WITH_TRANSFER_ENCODING;
            }
            if (head.http10) {
                return Rejection.TRANSFER_ENCODING_IN_HTTP10;
            }
            head.chunked = true;
        }
        if (hosts == 0 && !head.http10) {
            return Rejection.MISSING_HOST;
        }
        head.keepAlive = !closeRequested && (!head.http10 || keepAliveRequested);
        return null;
    }

    /**
     * RFC 9112 §3.2, RFC 3986 §3.2.2: {@code uri-host [ ":" port ]}, or empty. The host is an IP literal
     * in brackets or a reg-name (IPv4 is one); nothing else may hold a colon, and the port is digits.
     */
    private static boolean isHost(byte[] buf, int start, int end) {
        int i = start;
        if (i < end && buf[i] == '[') {
            for (i++; i < end && buf[i] != ']'; i++) {
                if (buf[i] == '[' || !Ascii.isAuthorityChar(buf[i])) {
                    return false;
                }
            }
            if (i == end) {
                return false;
            }
            i++;
        } else {
            while (i < end && Ascii.isRegNameChar(buf[i])) {
                i++;
            }
        }
        if (i == end) {
            return true;
        }
        if (buf[i] != ':') {
            return false;
        }
        for (i++; i < end; i++) {
            if (buf[i] < '0' || buf[i] > '9') {
                return false;
            }
        }
        return true;
    }

    private static Rejection parseRequestLine(byte[] buf, int start, int end, RequestHead head) {
        int methodEnd = indexOf(buf, start, end, Ascii.SP);
        if (methodEnd <= start) {
            return Rejection.MALFORMED_REQUEST_LINE;
        }
        int targetEnd = indexOf(buf, methodEnd + 1, end, Ascii.SP);
        if (targetEnd < 0 || targetEnd == methodEnd + 1) {
            return Rejection.MALFORMED_REQUEST_LINE;
        }
        Rejection rejection = parseVersionMethodAndTarget(buf, start, methodEnd, targetEnd, end, head);
        // A CR anywhere in the line fails one of those checks (none of their byte classes holds it);
        // the reason given is then the more precise one. Sound lines are never scanned for it.
        if (rejection != null && indexOf(buf, start, end, Ascii.CR) >= 0) {
            return Rejection.BARE_CR;
        }
        return rejection;
    }

    private static Rejection parseVersionMethodAndTarget(byte[] buf, int start, int methodEnd, int targetEnd, int end,
                                                         RequestHead head) {
        Rejection rejection = parseVersion(buf, targetEnd + 1, end, head);
        if (rejection != null) {
            return rejection;
        }
        head.method = method(buf, start, methodEnd);
        if (head.method == null) {
            // Only a name we do not serve is checked byte by byte: every known one is a token.
            for (int i = start; i < methodEnd; i++) {
                if (!Ascii.isTokenChar(buf[i])) {
                    return Rejection.INVALID_METHOD;
                }
            }
            return Rejection.UNKNOWN_METHOD;
        }
        return parseTarget(buf, methodEnd + 1, targetEnd, head);
    }

    /** The two versions served, compared whole; anything else is only classified, as malformed or not served. */
    private static Rejection parseVersion(byte[] buf, int start, int end, RequestHead head) {
        if (Ascii.equals(buf, start, end, HTTP_1_1) || Ascii.equals(buf, start, end, HTTP_1_0)) {
            head.http10 = buf[end - 1] == '0';
            return null;
        }
        if (end - start != 8 || buf[start] != 'H' || buf[start + 1] != 'T'
            || buf[start + 2] != 'T' || buf[start + 3] != 'P' || buf[start + 4] != '/'
            || !isDigit(buf[start + 5]) || buf[start + 6] != '.' || !isDigit(buf[start + 7])) {
            return Rejection.MALFORMED_REQUEST_LINE;
        }
        return Rejection.UNSUPPORTED_VERSION;
    }

    private static Method method(byte[] buf, int start, int end) {
        for (Method m : METHODS) {
            if (Ascii.equals(buf, start, end, METHOD_NAMES[m.ordinal()])) {
                return m;
            }
        }
        return null;
    }

    /** Origin-form, absolute-form (routed on its path) or, for OPTIONS, asterisk-form (RFC 9112 §3.2). */
    private static Rejection parseTarget(byte[] buf, int start, int end, RequestHead head) {
        byte first = buf[start];
        if (first == '/') {
            return parsePathAndQuery(buf, start, end, head);
        }
        if (first == '*' && end - start == 1 && head.method == Method.OPTIONS) {
            head.asteriskTarget = true;
            head.pathStart = start;
            head.pathEnd = start;
            return null;
        }
        int authorityStart;
        if (Ascii.equalsIgnoreCase(buf, start, Math.min(end, start + 7), HTTP_SCHEME)) {
            authorityStart = start + 7;
        } else if (Ascii.equalsIgnoreCase(buf, start, Math.min(end, start + 8), HTTPS_SCHEME)) {
            authorityStart = start + 8;
        } else {
            return Rejection.INVALID_TARGET;
        }
        int i = authorityStart;
        while (i < end) {
            byte b = buf[i];
            if (b == '/' || b == '?') {
                break;
            }
            if (!Ascii.isAuthorityChar(b)) {
                return Rejection.INVALID_TARGET;
            }
            i++;
        }
        if (i == authorityStart) {
            return Rejection.INVALID_TARGET;
        }
        return parsePathAndQuery(buf, i, end, head);
    }

    /** Path (empty means "/") and optional query; every byte checked against RFC 3986, escapes complete. */
    private static Rejection parsePathAndQuery(byte[] buf, int start, int end, RequestHead head) {
        head.pathStart = start;
        int i = start;
        while (i < end) {
            byte b = buf[i];
            if (Ascii.isPathChar(b)) {
                if (b == '%' && !isEscape(buf, i, end)) {
                    return Rejection.INVALID_TARGET;
                }
                i++;
            } else if (b == '?') {
                break;
            } else {
                return Rejection.INVALID_TARGET;
            }
        }
        head.pathEnd = i;
        if (i < end) {
            head.queryStart = i + 1;
            head.queryEnd = end;
            for (int q = i + 1; q < end; q++) {
                byte b = buf[q];
                if (!Ascii.isQueryChar(b) || (b == '%' && !isEscape(buf, q, end))) {
                    return Rejection.INVALID_TARGET;
                }
            }
        }
        return null;
    }

    private static boolean isEscape(byte[] buf, int percent, int end) {
        return percent + 2 < end
            && Ascii.hexValue(buf[percent + 1]) >= 0 && Ascii.hexValue(buf[percent + 2]) >= 0;
    }

    /**
     * Parses the field line that starts at {@code buf[start]} into the next field slot of {@code head},
     * recording where the line ends in {@link RequestHead#fieldLineEnd}, or only validates it when
     * {@code head} is null (trailer fields): the name is a token directly followed by a colon, the value
     * is trimmed of optional whitespace. The line ends at the first CR that an LF follows, or at
     * {@code limit} (a trailer line is copied without its CRLF); any other CR is bare. The line is
     * scanned once, its end found on the way rather than looked for first.
     */
    static Rejection parseField(byte[] buf, int start, int limit, RequestHead head) {
        byte first = buf[start];
        if (first == Ascii.SP || first == Ascii.HTAB) {
            return Rejection.OBS_FOLD;
        }
        int colon = start;
        while (true) {
            if (colon == limit) {
                return Rejection.INVALID_FIELD_NAME;
            }
            byte b = buf[colon];
            if (Ascii.isTokenChar(b)) {
                colon++;
            } else if (b == ':') {
                break;
            } else if (b == Ascii.SP || b == Ascii.HTAB) {
                return Rejection.WHITESPACE_BEFORE_COLON;
            } else if (b == Ascii.CR) {
                return isLineEnd(buf, colon, limit) ? Rejection.INVALID_FIELD_NAME : Rejection.BARE_CR;
            } else {
                return Rejection.INVALID_FIELD_NAME;
            }
        }
        if (colon == start) {
            return Rejection.INVALID_FIELD_NAME;
        }
        int valueStart = colon + 1;
        int valueEnd = valueStart;
        while (valueEnd < limit) {
            byte b = buf[valueEnd];
            if (Ascii.isFieldValueChar(b)) {
                valueEnd++;
            } else if (b != Ascii.CR) {
                return Rejection.INVALID_FIELD_VALUE;
            } else if (isLineEnd(buf, valueEnd, limit)) {
                break;
            } else {
                return Rejection.BARE_CR;
            }
        }
        if (head == null) {
            return null;
        }
        head.fieldLineEnd = valueEnd;
        while (valueStart < valueEnd && isOws(buf[valueStart])) {
            valueStart++;
        }
        while (valueEnd > valueStart && isOws(buf[valueEnd - 1])) {
            valueEnd--;
        }
        int field = head.fieldCount++;
        head.nameStart[field] = start;
        head.nameEnd[field] = colon;
        head.valueStart[field] = valueStart;
        head.valueEnd[field] = valueEnd;
        return null;
    }

    /** Whether the CR at {@code buf[cr]} ends its line: an LF follows it before {@code limit}. */
    private static boolean isLineEnd(byte[] buf, int cr, int limit) {
        return cr + 1 < limit && buf[cr + 1] == Ascii.LF;
    }

    private static final int OPTION_CLOSE = 1;
    private static final int OPTION_KEEP_ALIVE = 2;

    /** The {@code close} and {@code keep-alive} options of a comma-separated Connection value. */
    private static int connectionOptions(byte[] buf, int start, int end) {
        int options = 0;
        int tokenStart = start;
        for (int i = start; i <= end; i++) {
            if (i == end || buf[i] == ',') {
                int s = tokenStart;
                int e = i;
                while (s < e && isOws(buf[s])) {
                    s++;
                }
                while (e > s && isOws(buf[e - 1])) {
                    e--;
                }
                if (Ascii.equalsIgnoreCase(buf, s, e, CLOSE)) {
                    options |= OPTION_CLOSE;
                } else if (Ascii.equalsIgnoreCase(buf, s, e, KEEP_ALIVE)) {
                    options |= OPTION_KEEP_ALIVE;
                }
                tokenStart = i + 1;
            }
        }
        return options;
    }

    /** The decimal value, {@code Long.MAX_VALUE} when it has too many digits to matter, -1 when invalid. */
    private static long parseContentLength(byte[] buf, int start, int end) {
        if (start == end) {
            return -1;
        }
        long value = 0;
        for (int i = start; i < end; i++) {
            byte b = buf[i];
            if (!isDigit(b)) {
                return -1;
            }
            if (i - start < MAX_CONTENT_LENGTH_DIGITS) {
                value = value * 10 + (b - '0');
            } else {
                value = Long.MAX_VALUE;
            }
        }
        return value;
    }

    /** Index of the first {@code value} in {@code buf[from, to)}, or -1. */
    private static int indexOf(byte[] buf, int from, int to, byte value) {
        for (int i = from; i < to; i++) {
            if (buf[i] == value) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isOws(byte b) {
        return b == Ascii.SP || b == Ascii.HTAB;
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }
}
