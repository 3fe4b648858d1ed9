package dev.hotpath.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.Method;
import dev.hotpath.http.ServerLimits;
import dev.hotpath.http.testing.SeededCases;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Properties of the decoder: it never throws, whatever the bytes and however they are split; and every
 * generated valid request decodes to exactly what was generated. Inputs come from {@link SeededCases}
 * with a fixed seed, so every run checks the same cases and a failure prints the input.
 */
class RequestDecoderPropertyTest {
    private static final ServerLimits LIMITS = ServerLimits.DEFAULTS;
    private static final long SEED = 20261130L;
    private static final String OUTCOME = "(?s)(request|rejected|incomplete) .*";
    /** Bytes that steer the decoder into its interesting states more often than uniform bytes do. */
    private static final byte[] HTTP_BYTES = "GET /?%:; \t\r\n\r\nHTTP/1.1Host0a9fF-chunkedContent-Length\0\u007f"
        .getBytes(StandardCharsets.ISO_8859_1);
    private static final List<Method> METHODS = List.of(Method.GET, Method.POST, Method.PUT, Method.DELETE, Method.PATCH);
    private static final List<String> FRAMING_FIELDS = List.of("host", "content-length", "transfer-encoding",
        "connection", "expect");

    @Test
    void neverThrowsOnArbitraryBytes() {
        SeededCases.check(SEED, 2000, random -> new Split(arbitraryBytes(random), readSize(random)), Split::toString,
            split -> assertThat(DecoderHarness.run(LIMITS, split.pieces())).allSatisfy(o -> assertThat(o).matches(OUTCOME)));
    }

    @Test
    void neverThrowsOnMutatedValidRequests() {
        SeededCases.check(SEED, 2000, random -> {
            byte[] bytes = validRequest(random).encode();
            bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
            return new Split(bytes, readSize(random));
        }, Split::toString,
            split -> assertThat(DecoderHarness.run(LIMITS, split.pieces())).allSatisfy(o -> assertThat(o).matches(OUTCOME)));
    }

    @Test
    void decodesEveryGeneratedValidRequestToWhatWasGenerated() {
        record Case(GeneratedRequest request, int readSize) {
        }
        SeededCases.check(SEED, 1000, random -> new Case(validRequest(random), readSize(random)),
            c -> c.request() + "\nread size " + c.readSize(),
            c -> assertThat(DecoderHarness.run(LIMITS, new Split(c.request().encode(), c.readSize()).pieces()))
                .containsExactly(c.request().expectedOutcome()));
    }

    /** Up to 600 bytes: half the time uniform, half the time drawn from {@link #HTTP_BYTES}. */
    private static byte[] arbitraryBytes(Random random) {
        byte[] bytes = new byte[random.nextInt(601)];
        if (random.nextBoolean()) {
            random.nextBytes(bytes);
        } else {
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = HTTP_BYTES[random.nextInt(HTTP_BYTES.length)];
            }
        }
        return bytes;
    }

    private static int readSize(Random random) {
        return 1 + random.nextInt(64);
    }

    private static GeneratedRequest validRequest(Random random) {
        Method method = METHODS.get(random.nextInt(METHODS.size()));
        List<String> segments = new ArrayList<>();
        for (int n = random.nextInt(5); n > 0; n--) {
            segments.add(string(random, "abcXYZ019-._~!$&'()*+,;=:@", 1, 12));
        }
        String query = null;
        if (random.nextBoolean()) {
            do {
                query = string(random, "abc=&?/%20", 0, 16);
            } while (!query.matches("([^%]|%20)*"));
        }
        List<String[]> fields = new ArrayList<>();
        for (int n = random.nextInt(9); n > 0; n--) {
            String name;
            do {
                name = string(random, "abcdefXYZ-0123!#", 1, 10);
            } while (FRAMING_FIELDS.contains(name.toLowerCase(java.util.Locale.ROOT)));
            fields.add(new String[] {name, string(random, "abc XYZ\t0123;=,\"/", 0, 20)});
        }
        byte[] body = new byte[random.nextInt(301)];
        random.nextBytes(body);
        return new GeneratedRequest(method, "/" + String.join("/", segments), query, fields, body, random.nextBoolean());
    }

    private static String string(Random random, String alphabet, int minLength, int maxLength) {
        char[] chars = new char[minLength + random.nextInt(maxLength - minLength + 1)];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = alphabet.charAt(random.nextInt(alphabet.length()));
        }
        return new String(chars);
    }

    /** Bytes fed to the decoder in reads of {@code readSize} (the last one shorter). */
    record Split(byte[] bytes, int readSize) {
        List<byte[]> pieces() {
            if (bytes.length == 0) {
                return List.of(bytes);
            }
            List<byte[]> pieces = new ArrayList<>();
            for (int i = 0; i < bytes.length; i += readSize) {
                pieces.add(Arrays.copyOfRange(bytes, i, Math.min(bytes.length, i + readSize)));
            }
            return pieces;
        }

        @Override
        public String toString() {
            return DecoderHarness.escape(bytes) + "\nread size " + readSize;
        }
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
            return DecoderHarness.escape(encode());
        }
    }
}
