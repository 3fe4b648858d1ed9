package dev.hotpath.loadgen;

/**
 * One response as a {@link Workload} checks it: status, {@code Location} and body. Read-only, and lent
 * for the duration of one {@link Workload#check} or {@link Workload#describe} call: the generator
 * parses the next response into the same buffers, so a check compares in place and copies only what it
 * keeps (a created code, a mismatch to report). Comparing allocates nothing; the methods that return a
 * {@code String} allocate.
 */
public interface Answer {
    int status();

    /** Whether the {@code Location} header is exactly {@code expected}; false when there is none. */
    boolean locationEquals(byte[] expected);

    /** The {@code Location} header, or null. Allocates: for reports and for what a check keeps. */
    String location();

    /** Whether the body is exactly {@code expected}. */
    boolean bodyEquals(byte[] expected);

    /**
     * The body's bytes, in {@code [0, bodyLength())}: the parser's own buffer, lent, not copied, so
     * that a check can hand it to a JSON parser without a copy per answer. Read it; never write it or
     * keep it past the call.
     */
    byte[] bodyArray();

    int bodyLength();

    /** The body as UTF-8 text, cut to {@code max} characters. Allocates: for reports. */
    String bodyText(int max);
}
