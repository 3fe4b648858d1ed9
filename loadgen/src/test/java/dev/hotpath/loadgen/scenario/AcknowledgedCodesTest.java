package dev.hotpath.loadgen.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class AcknowledgedCodesTest {
    private static final String ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

    @Test
    void packingIsExactForEveryLengthItTakes() {
        for (String code : new String[] {"0", "00", "000000000", "zzzzzzzzz", "Xk3b9QzT", "a", "9Z"}) {
            long key = AcknowledgedCodes.pack(code);
            assertThat(key).isNotZero();
            assertThat(AcknowledgedCodes.unpack(key)).isEqualTo(code);
        }
        assertThat(AcknowledgedCodes.pack("0")).isNotEqualTo(AcknowledgedCodes.pack("00"));
        for (String code : new String[] {"", "zzzzzzzzzz", "launch-2026", "a_b", "é"}) {
            assertThat(AcknowledgedCodes.pack(code)).isZero();
        }
    }

    @Test
    void refusesACodeGivenTwiceAndReturnsEveryCodeWithItsSequence() {
        AcknowledgedCodes codes = new AcknowledgedCodes();
        Map<String, Long> expected = new HashMap<>();
        SplittableRandom random = new SplittableRandom(7);
        while (expected.size() < 200_000) { // several times the table's first size: it grows
            String code = randomCode(random, 1 + random.nextInt(16));
            long sequence = expected.size();
            boolean fresh = !expected.containsKey(code);
            assertThat(codes.add(code, sequence)).isEqualTo(fresh);
            if (fresh) {
                expected.put(code, sequence);
            }
        }
        for (Map.Entry<String, Long> e : expected.entrySet()) {
            assertThat(codes.add(e.getKey(), -5)).isFalse();
        }
        assertThat(codes.size()).isEqualTo(expected.size());
        assertThat(codes.sequenceOf("never-given")).isEqualTo(-1);
        assertThat(codes.sequenceOf("QQQQQQQQ")).isEqualTo(expected.getOrDefault("QQQQQQQQ", -1L));

        AcknowledgedCodes.Snapshot snapshot = codes.snapshot();
        Map<String, Long> seen = new HashMap<>();
        for (int i = 0; i < snapshot.codes().length; i++) {
            seen.put(snapshot.codes()[i], snapshot.sequences()[i]);
            assertThat(codes.sequenceOf(snapshot.codes()[i])).isEqualTo(snapshot.sequences()[i]);
        }
        assertThat(seen).isEqualTo(expected);
    }

    private static String randomCode(SplittableRandom random, int length) {
        StringBuilder code = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            code.append(length > 12 && i == 3 ? '-' : ALPHANUMERIC.charAt(random.nextInt(62)));
        }
        return code.toString();
    }
}
