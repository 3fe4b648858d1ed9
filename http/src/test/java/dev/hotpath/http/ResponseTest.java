package dev.hotpath.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ResponseTest {
    @Test
    void aRedirectEncodesTheSameBytesAsTheBuilder() {
        Response fast = Response.redirect(302, "https://example.com/a?b=c");
        Response built = Response.builder(302).header("Location", "https://example.com/a?b=c").build();
        assertThat(fast.wire()).isEqualTo(built.wire());
        assertThat(fast.headLength()).isEqualTo(built.headLength());
        assertThat(new String(fast.wire(), StandardCharsets.US_ASCII))
            .isEqualTo("Location: https://example.com/a?b=c\r\nContent-Length: 0\r\n\r\n");
    }

    @Test
    void theBuilderWritesHeadersInOrderThenContentLengthThenTheBody() {
        String longValue = "v".repeat(300);
        Response built = Response.builder(201).header("Location", "/a").header("X-Long", longValue)
            .body("application/json", "{}".getBytes(StandardCharsets.US_ASCII));
        String head = "Location: /a\r\nX-Long: " + longValue + "\r\nContent-Type: application/json\r\n"
            + "Content-Length: 2\r\n\r\n";
        assertThat(new String(built.wire(), StandardCharsets.ISO_8859_1)).isEqualTo(head + "{}");
        assertThat(built.headLength()).isEqualTo(head.length());
        assertThat(Response.empty(204).wire()).isEqualTo("\r\n".getBytes(StandardCharsets.US_ASCII));
    }

    /** Every length's digits, at each boundary where their count changes, in an array of exactly the answer's size. */
    @Test
    void ofEncodesTheExactAnswerWithoutABuilder() {
        for (int length : new int[] {0, 1, 9, 10, 99, 100, 999, 1000, 12_345, 100_000}) {
            byte[] body = "x".repeat(length).getBytes(StandardCharsets.US_ASCII);
            Response answer = Response.of(201, "application/json", body);
            String head = "Content-Type: application/json\r\nContent-Length: " + length + "\r\n\r\n";
            assertThat(answer.wire()).hasSize(head.length() + length);
            assertThat(new String(answer.wire(), StandardCharsets.ISO_8859_1)).isEqualTo(head + "x".repeat(length));
            assertThat(answer.headLength()).isEqualTo(head.length());
            assertThat(answer.status()).isEqualTo(201);
            assertThat(answer.wire()).isEqualTo(Response.builder(201).body("application/json", body).wire());
        }
        assertThat(new String(Response.of(200, null, new byte[] {'a'}).wire(), StandardCharsets.ISO_8859_1))
            .isEqualTo("Content-Length: 1\r\n\r\na");
        assertThat(new String(Response.of(204, "text/plain", new byte[0]).wire(), StandardCharsets.ISO_8859_1))
            .isEqualTo("Content-Type: text/plain\r\n\r\n");
        assertThat(new String(Response.of(101, null, new byte[0]).wire(), StandardCharsets.ISO_8859_1)).isEqualTo("\r\n");
    }

    @Test
    void ofTakesTheBodyFromTheStartOfALargerBufferAndCopiesIt() {
        byte[] buffer = "{}trailing".getBytes(StandardCharsets.US_ASCII);
        Response answer = Response.of(200, "application/json", buffer, 2);
        buffer[0] = 'x';
        assertThat(new String(answer.wire(), StandardCharsets.US_ASCII))
            .isEqualTo("Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
        assertThat(answer.bodyLength()).isEqualTo(2);
        assertThat(Response.empty(204).bodyLength()).isZero();
        assertThatThrownBy(() -> Response.of(200, "application/json", buffer, 11)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> Response.of(200, "application/json", buffer, -1)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void ofRefusesWhatTheBuilderRefuses() {
        assertThatThrownBy(() -> Response.of(204, "text/plain", new byte[1])).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("a 204 response has no body");
        assertThatThrownBy(() -> Response.of(304, null, new byte[1])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Response.of(200, "text/plain\r\nSet-Cookie: x", new byte[0])).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("invalid character in value of Content-Type");
        assertThatThrownBy(() -> Response.of(99, "text/plain", new byte[0])).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("status out of range: 99");
        assertThatThrownBy(() -> Response.of(600, "text/plain", new byte[0])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aContentTypeIsTheFieldABuiltResponseHoldsAndRefusesWhatItRefuses() {
        assertThat(new String(ContentType.of("text/plain; charset=utf-8").field(), StandardCharsets.US_ASCII))
            .isEqualTo("Content-Type: text/plain; charset=utf-8\r\n");
        assertThat(new String(Response.of(200, "application/json", new byte[0]).wire(), StandardCharsets.US_ASCII))
            .startsWith(new String(ContentType.JSON.field(), StandardCharsets.US_ASCII));
        assertThatThrownBy(() -> ContentType.of("text/plain\r\nSet-Cookie: x")).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("invalid character in value of Content-Type");
    }

    /**
     * RFC 9110 §8.6: a 304's {@code Content-Length} may only repeat the length of the 200 it stands for,
     * so a 304 has none, nor a body; the validators it carries are the caller's headers.
     */
    @Test
    void aNotModifiedAnswerHasNoContentLength() {
        Response notModified = Response.builder(304).header("ETag", "\"a\"").build();
        assertThat(new String(notModified.wire(), StandardCharsets.ISO_8859_1)).isEqualTo("ETag: \"a\"\r\n\r\n");
        assertThatThrownBy(() -> Response.builder(304).body("text/plain", new byte[1])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void refusesARedirectThatCouldSplitTheResponse() {
        assertThatThrownBy(() -> Response.redirect(302, "https://a/\r\nSet-Cookie: x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Response.redirect(200, "https://a/")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theBuilderRefusesHeadersTheEngineOwns() {
        assertThatThrownBy(() -> Response.builder(200).header("Content-Length", "5")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Response.builder(200).header("transfer-ENCODING", "chunked")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Response.builder(200).header("X-A", "caf\u00e9\u20ac")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Response.builder(200).header("X-A", "a\nb")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Response.builder(204).body("text/plain", new byte[1])).isInstanceOf(IllegalArgumentException.class);
    }
}
