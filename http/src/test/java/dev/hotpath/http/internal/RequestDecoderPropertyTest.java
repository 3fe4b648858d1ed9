package dev.hotpath.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.Method;
import dev.hotpath.http.ServerLimits;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Properties of the decoder: it never throws, whatever the bytes and however they are split; and every
 * generated valid request decodes to exactly what was generated.
 */
class RequestDecoderPropertyTest {
    private static final ServerLimits LIMITS = ServerLimits.DEFAULTS;

    @Property(tries = 2000, seed = "20261130")
    void neverThrowsOnArbitraryBytes(@ForAll @Size(max = 600) byte[] bytes, @ForAll @IntRange(min = 1, max = 64) int readSize) {
        List<String> outcomes = DecoderHarness.run(LIMITS, split(bytes, readSize));
        assertThat(outcomes).allSatisfy(o -> assertThat(o).matches("(?s)(request|rejected|incomplete) .*"));
    }

    @Property(tries = 2000, seed = "20261130")
    void neverThrowsOnMutatedValidRequests(@ForAll("validRequests") GeneratedRequest request,
                                           @ForAll @IntRange(min = 0, max = 10_000) int position,
                                           @ForAll byte replacement, @ForAll @IntRange(min = 1, max = 64) int readSize) {
        byte[] bytes = request.encode();
        bytes[position % bytes.length] = replacement;
        List<String> outcomes = DecoderHarness.run(LIMITS, split(bytes, readSize));
        assertThat(outcomes).allSatisfy(o -> assertThat(o).matches("(?s)(request|rejected|incomplete) .*"));
    }

    @Property(tries = 1000, seed = "20261130")
    void decodesEveryGeneratedValidRequestToWhatWasGenerated(@ForAll("validRequests") GeneratedRequest request,
                                                            @ForAll @IntRange(min = 1, max = 64) int readSize) {
        byte[] bytes = request.encode();
        assertThat(DecoderHarness.run(LIMITS, split(bytes, readSize))).containsExactly(request.expectedOutcome());
    }

    @Provide
    Arbitrary<GeneratedRequest> validRequests() {
        Arbitrary<Method> methods = Arbitraries.of(Method.GET, Method.POST, Method.PUT, Method.DELETE, Method.PATCH);
        Arbitrary<String> segments = Arbitraries.strings().withChars("abcXYZ019-._~!$&'()*+,;=:@").ofMinLength(1).ofMaxLength(12);
        Arbitrary<String> paths = segments.list().ofMinSize(0).ofMaxSize(4).map(s -> "/" + String.join("/", s));
        Arbitrary<String> queries = Arbitraries.strings().withChars("abc=&?/%20").ofMaxLength(16)
            .filter(q -> !q.contains("%") || q.matches("([^%]|%20)*")).injectNull(0.5);
        Arbitrary<String> names = Arbitraries.strings().withChars("abcdefXYZ-0123!#").ofMinLength(1).ofMaxLength(10)
            .filter(n -> !List.of("host", "content-length", "transfer-encoding", "connection", "expect")
                .contains(n.toLowerCase()));
        Arbitrary<String> values = Arbitraries.strings().withChars("abc XYZ\t0123;=,\"/").ofMaxLength(20);
        Arbitrary<List<String[]>> fields = Combinators.combine(names, values).as((n, v) -> new String[] {n, v})
            .list().ofMaxSize(8);
        Arbitrary<byte[]> bodies = Arbitraries.bytes().array(byte[].class).ofMaxSize(300);
        return Combinators.combine(methods, paths, queries, fields, bodies, Arbitraries.of(false, true))
            .as(GeneratedRequest::new);
    }

    record GeneratedRequest(Method method, String path, String query, List<String[]> fields, byte[] body, boolean chunked) {
        byte[] encode() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            write(out, method + " " + path + (query == null ? "" : "?" + query) + " HTTP/1.1\r\nHost: h\r\n");
            for (String[] f : fields) {
                write(out, f[0] + ": " + f[1] + "\r\n");
            }
            if (chunked) {
                write(out, "Transfer-Encoding: chunked\r\n\r\n");
                for (int i = 0; i < body.length; i += 100) {
                    int n = Math.min(100, body.length - i);
                    write(out, Integer.toHexString(n) + ";ext=1\r\n");
                    out.write(body, i, n);
                    write(out, "\r\n");
                }
                write(out, "0\r\n\r\n");
            } else {
                write(out, "Content-Length: " + body.length + "\r\n\r\n");
                out.writeBytes(body);
            }
            return out.toByteArray();
        }

        String expectedOutcome() {
            return "request " + method + " path=" + path + " query=" + (query == null ? "-" : query)
                + " http=1.1 keep-alive=true fields=" + (fields.size() + 2) + " host=h body=" + DecoderHarness.escape(body);
        }

        private static void write(ByteArrayOutputStream out, String ascii) {
            out.writeBytes(ascii.getBytes(StandardCharsets.ISO_8859_1));
        }

        @Override
        public String toString() {
            return new String(encode(), StandardCharsets.ISO_8859_1);
        }
    }

    private static List<byte[]> split(byte[] bytes, int readSize) {
        if (bytes.length == 0) {
            return List.of(bytes);
        }
        List<byte[]> pieces = new java.util.ArrayList<>();
        for (int i = 0; i < bytes.length; i += readSize) {
            pieces.add(Arrays.copyOfRange(bytes, i, Math.min(bytes.length, i + readSize)));
        }
        return pieces;
    }
}
