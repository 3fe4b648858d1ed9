package dev.hotpath.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.ServerLimits;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each limit of {@link ServerLimits}: the largest allowed input passes, one byte more is refused, early. */
class RequestDecoderLimitsTest {
    private static final ServerLimits LIMITS = ServerLimits.DEFAULTS;

    @Test
    void acceptsARequestLineOfExactlyTheLimit() {
        String line = requestLineOfLength(LIMITS.maxRequestLineBytes());
        assertThat(decode(line + "\r\nHost: a\r\n\r\n")).singleElement().asString().startsWith("request GET");
    }

    @Test
    void rejectsARequestLineOneByteOverTheLimitWith414() {
        String line = requestLineOfLength(LIMITS.maxRequestLineBytes() + 1);
        assertThat(decode(line + "\r\nHost: a\r\n\r\n")).containsExactly("rejected REQUEST_LINE_TOO_LONG 414");
    }

    @Test
    void rejectsAnEndlessRequestLineBeforeItEnds() {
        String endless = "GET /" + "a".repeat(LIMITS.maxRequestLineBytes() + 10);
        assertThat(decode(endless)).containsExactly("rejected REQUEST_LINE_TOO_LONG 414");
    }

    @Test
    void skipsUpToTheLimitOfEmptyLinesBeforeEachRequest() {
        String blank = "\r\n".repeat(RequestDecoder.MAX_EMPTY_LINES);
        assertThat(DecoderHarness.run(LIMITS, List.of(bytes(blank + "GET /a HTTP/1.1\r\nHost: a\r\n\r\n"),
                bytes(blank), bytes("GET /b HTTP/1.1\r\nHost: a\r\n\r\n"))))
            .hasSize(2).allSatisfy(outcome -> assertThat(outcome).startsWith("request GET"));
    }

    @Test
    void rejectsOneEmptyLineMoreThanTheLimitEvenWhenEachCameAlone() {
        List<byte[]> oneAtATime = Collections.nCopies(RequestDecoder.MAX_EMPTY_LINES + 1, bytes("\r\n"));
        assertThat(DecoderHarness.run(LIMITS, oneAtATime)).containsExactly("rejected TOO_MANY_EMPTY_LINES 400");
    }

    @Test
    void acceptsAHeaderBlockOfExactlyTheLimit() {
        assertThat(decode("GET / HTTP/1.1\r\n" + headerBlockOfLength(LIMITS.maxHeaderBytes())))
            .singleElement().asString().startsWith("request GET");
    }

    @Test
    void rejectsAHeaderBlockOneByteOverTheLimitWith431() {
        assertThat(decode("GET / HTTP/1.1\r\n" + headerBlockOfLength(LIMITS.maxHeaderBytes() + 1)))
            .containsExactly("rejected HEADERS_TOO_LARGE 431");
    }

    @Test
    void rejectsAnEndlessHeaderBlockBeforeItEnds() {
        String endless = "GET / HTTP/1.1\r\nHost: a\r\nX-Endless: " + "v".repeat(LIMITS.maxHeaderBytes());
        assertThat(decode(endless)).containsExactly("rejected HEADERS_TOO_LARGE 431");
    }

    @Test
    void acceptsExactlyTheMaximumNumberOfFields() {
        assertThat(decode("GET / HTTP/1.1\r\nHost: a\r\n" + fields(LIMITS.maxHeaderFields() - 1) + "\r\n"))
            .singleElement().asString().contains("fields=" + LIMITS.maxHeaderFields());
    }

    @Test
    void rejectsOneFieldMoreThanTheMaximumWith431() {
        assertThat(decode("GET / HTTP/1.1\r\nHost: a\r\n" + fields(LIMITS.maxHeaderFields()) + "\r\n"))
            .containsExactly("rejected TOO_MANY_HEADERS 431");
    }

    @Test
    void acceptsABodyOfExactlyTheLimit() {
        int limit = LIMITS.maxBodyBytes();
        assertThat(decode("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: " + limit + "\r\n\r\n" + "b".repeat(limit)))
            .singleElement().asString().endsWith("body=" + "b".repeat(limit));
    }

    @Test
    void rejectsADeclaredBodyOverTheLimitBeforeReadingIt() {
        int over = LIMITS.maxBodyBytes() + 1;
        assertThat(decode("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: " + over + "\r\n\r\n"))
            .containsExactly("rejected BODY_TOO_LARGE 413");
    }

    @Test
    void rejectsChunksThatTogetherExceedTheLimit() {
        int half = LIMITS.maxBodyBytes() / 2;
        String chunk = Integer.toHexString(half) + "\r\n" + "c".repeat(half) + "\r\n";
        assertThat(decode("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk + chunk + "1\r\n"))
            .containsExactly("rejected BODY_TOO_LARGE 413");
    }

    @Test
    void acceptsChunksThatTogetherReachExactlyTheLimit() {
        int half = LIMITS.maxBodyBytes() / 2;
        String chunk = Integer.toHexString(half) + "\r\n" + "c".repeat(half) + "\r\n";
        assertThat(decode("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk + chunk + "0\r\n\r\n"))
            .singleElement().asString().endsWith("c".repeat(2 * half));
    }

    @Test
    void rejectsAnEndlessChunkSizeLine() {
        String endless = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1;"
            + "e".repeat(ServerLimits.MAX_CHUNK_LINE_BYTES);
        assertThat(decode(endless)).containsExactly("rejected INVALID_CHUNK 400");
    }

    @Test
    void rejectsMoreTrailerFieldsThanTheLimit() {
        String trailers = fields(LIMITS.maxHeaderFields() + 1);
        assertThat(decode("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n" + trailers + "\r\n"))
            .containsExactly("rejected TOO_MANY_HEADERS 431");
    }

    @Test
    void honoursLimitsSetLowerThanTheDefaults() {
        ServerLimits small = LIMITS.withMaxRequestLineBytes(20).withMaxHeaderFields(2).withMaxBodyBytes(3);
        assertThat(DecoderHarness.run(small, List.of(bytes("GET /" + "a".repeat(20) + " HTTP/1.1\r\n"))))
            .containsExactly("rejected REQUEST_LINE_TOO_LONG 414");
        assertThat(DecoderHarness.run(small, List.of(bytes("GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\n\r\n"))))
            .containsExactly("rejected TOO_MANY_HEADERS 431");
        assertThat(DecoderHarness.run(small, List.of(bytes("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\n"))))
            .containsExactly("rejected BODY_TOO_LARGE 413");
    }

    private static List<String> decode(String request) {
        return DecoderHarness.run(LIMITS, List.of(bytes(request)));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** {@code GET /aaa… HTTP/1.1} of exactly {@code length} bytes, CRLF not counted. */
    private static String requestLineOfLength(int length) {
        String frame = "GET / HTTP/1.1";
        return "GET /" + "a".repeat(length - frame.length()) + " HTTP/1.1";
    }

    /** A Host field plus one padded field, with the closing empty line: exactly {@code length} bytes. */
    private static String headerBlockOfLength(int length) {
        String host = "Host: a\r\n";
        String padFrame = "X-Pad: \r\n";
        return host + "X-Pad: " + "p".repeat(length - host.length() - padFrame.length() - 2) + "\r\n\r\n";
    }

    private static String fields(int count) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < count; i++) {
            out.append("X-F").append(i).append(": v\r\n");
        }
        return out.toString();
    }
}
