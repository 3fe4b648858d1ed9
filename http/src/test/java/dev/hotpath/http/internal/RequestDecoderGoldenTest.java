package dev.hotpath.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.ServerLimits;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The golden corpus: each {@code golden/NAME.http} (a request in escaped notation) must decode to the
 * lines of {@code NAME.expected}, whether it arrives whole, split in two at every byte boundary, one
 * byte per read, or (when accepted) pipelined twice back to back in one read.
 */
class RequestDecoderGoldenTest {
    private static final ServerLimits LIMITS = ServerLimits.DEFAULTS;

    @TestFactory
    Stream<DynamicTest> everyGoldenRequestDecodesTheSameHoweverItIsSplit() throws Exception {
        return goldenNames().stream().map(name -> DynamicTest.dynamicTest(name, () -> {
            byte[] request = DecoderHarness.unescape(read(name + ".http"));
            List<String> expected = read(name + ".expected").lines().toList();

            assertThat(DecoderHarness.run(LIMITS, List.of(request))).as("whole").isEqualTo(expected);
            for (int split = 1; split < request.length; split++) {
                List<byte[]> pieces = List.of(Arrays.copyOfRange(request, 0, split),
                    Arrays.copyOfRange(request, split, request.length));
                assertThat(DecoderHarness.run(LIMITS, pieces)).as("split at %d", split).isEqualTo(expected);
            }
            List<byte[]> bytes = new ArrayList<>();
            for (byte b : request) {
                bytes.add(new byte[] {b});
            }
            assertThat(DecoderHarness.run(LIMITS, bytes)).as("byte by byte").isEqualTo(expected);
            if (expected.getFirst().startsWith("request") && !expected.getFirst().contains("keep-alive=false")) {
                byte[] twice = new byte[request.length * 2];
                System.arraycopy(request, 0, twice, 0, request.length);
                System.arraycopy(request, 0, twice, request.length, request.length);
                List<String> expectedTwice = new ArrayList<>(expected);
                expectedTwice.addAll(expected);
                assertThat(DecoderHarness.run(LIMITS, List.of(twice))).as("pipelined").isEqualTo(expectedTwice);
            }
        }));
    }

    @Test
    void corpusCoversEveryRejectionOfFraming() throws Exception {
        String all = String.join("\n", goldenNames().stream().map(n -> {
            try {
                return read(n + ".expected");
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).toList());
        for (Rejection r : Rejection.values()) {
            boolean coveredElsewhere = r == Rejection.REQUEST_LINE_TOO_LONG || r == Rejection.HEADERS_TOO_LARGE
                || r == Rejection.TOO_MANY_HEADERS || r == Rejection.REQUEST_TIMEOUT;
            if (!coveredElsewhere) {
                assertThat(all).as("a golden case for %s", r).contains("rejected " + r + " ");
            }
        }
    }

    private static List<String> goldenNames() throws IOException, URISyntaxException {
        Path dir = Path.of(RequestDecoderGoldenTest.class.getResource("/golden").toURI());
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".http"))
                .map(n -> n.substring(0, n.length() - ".http".length())).sorted().toList();
        }
    }

    private static String read(String file) throws IOException {
        try (var in = RequestDecoderGoldenTest.class.getResourceAsStream("/golden/" + file)) {
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
