package dev.hotpath.http;

/**
 * A decoded request as a handler sees it: a view over the connection's inbound buffer.
 *
 * <p><b>Valid only during the handler call.</b> The engine reuses the view for the next request and
 * releases the bytes behind it; an {@link AsyncHandler} must copy what it needs (for example with
 * {@link #bodyBytes()} or {@link #pathParam(int)}) before it returns. The accessors that return
 * {@code String} or {@code byte[]} allocate; the others read the buffer in place.
 */
public interface Request {
    Method method();

    /** {@code true} for HTTP/1.0, {@code false} for HTTP/1.1. */
    boolean isHttp10();

    /** The path of the target without the query, as sent (still percent-encoded). */
    String path();

    /** The query after {@code ?} as sent, or {@code null} when the target has none. */
    String query();

    /** Length in bytes of the query (without the {@code ?}), or -1 when the target has none. */
    int queryLength();

    /** Byte {@code offset} of the query: read the query without allocating. */
    byte queryByte(int offset);

    /** How many {@code {name}} parameters the matched route pattern captured. */
    int pathParamCount();

    /** Parameter {@code index} of the matched pattern, as sent (still percent-encoded). */
    String pathParam(int index);

    /** Length in bytes of parameter {@code index}. */
    int pathParamLength(int index);

    /** Byte {@code offset} of parameter {@code index}: read a parameter without allocating. */
    byte pathParamByte(int index, int offset);

    /** The value of the first field with this name, without surrounding whitespace, or {@code null}. */
    String header(HeaderName name);

    /**
     * Copies the value of the first field with this name, without surrounding whitespace, into
     * {@code into} (as much as fits) and returns its whole length, or -1 when there is none: reads a
     * header without allocating (a returned length above {@code into.length} means it did not fit).
     */
    default int header(HeaderName name, byte[] into) {
        String value = header(name);
        if (value == null) {
            return -1;
        }
        int copied = Math.min(value.length(), into.length);
        value.getBytes(0, copied, into, 0);
        return value.length();
    }

    /** Body length in bytes (0 when the request has no body). */
    int bodyLength();

    /** A copy of the body. */
    byte[] bodyBytes();

    /**
     * Copies the body into {@code into[0, bodyLength())}: reads it without allocating, into an array
     * the handler keeps.
     *
     * @throws IndexOutOfBoundsException when {@code into} is shorter than the body
     */
    void copyBody(byte[] into);

    /**
     * Whether the body is declared JSON, or not declared at all: {@code Content-Type} absent, or
     * {@code application/json} with any parameters, the type compared case-insensitively (RFC 9110
     * §8.3.1). What a JSON API answers {@code 415} to when false.
     */
    boolean declaresJsonOrNothing();
}
