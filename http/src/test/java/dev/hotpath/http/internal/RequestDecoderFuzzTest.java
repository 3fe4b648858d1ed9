package dev.hotpath.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.hotpath.http.ServerLimits;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Coverage-guided fuzzing of the decoder with Jazzer. A normal build runs it in regression mode: each
 * file under {@code RequestDecoderFuzzTestInputs/<method>/} in the test resources (golden requests,
 * plus what local fuzzing found worth keeping) is replayed once; nothing is generated. With
 * {@code JAZZER_FUZZ=1} it fuzzes for {@code maxDuration} and saves crashing inputs beside the corpus.
 *
 * <p>Invariants, whatever the bytes: the decoder throws nothing (a bad request is a rejection it
 * returns, never an exception); it never reads past what arrived (each read is a buffer of exactly its
 * length, see {@link DecoderHarness}); it never gives back bytes it consumed, and cannot consume more
 * than arrived (ByteBuf forbids it); every outcome is a request, a rejection or an unfinished request;
 * and the outcomes are the same whether the bytes arrive whole, one byte per read, or in two halves.
 */
class RequestDecoderFuzzTest {
    private static final ServerLimits LIMITS = ServerLimits.DEFAULTS;

    @FuzzTest(maxDuration = "60s")
    void decodesAnyBytesTheSameWholeAndSplit(byte[] input) {
        List<String> whole = DecoderHarness.run(LIMITS, List.of(input));

        assertThat(whole).allSatisfy(outcome -> assertThat(outcome).matches("(?s)(request|rejected|incomplete) .*"));
        assertThat(DecoderHarness.run(LIMITS, byteByByte(input))).as("byte by byte").isEqualTo(whole);
        int half = input.length / 2;
        assertThat(DecoderHarness.run(LIMITS, List.of(Arrays.copyOfRange(input, 0, half),
            Arrays.copyOfRange(input, half, input.length)))).as("in halves").isEqualTo(whole);
    }

    private static List<byte[]> byteByByte(byte[] input) {
        List<byte[]> pieces = new ArrayList<>();
        for (int i = 0; i < input.length; i++) {
            pieces.add(Arrays.copyOfRange(input, i, i + 1));
        }
        return pieces;
    }
}
