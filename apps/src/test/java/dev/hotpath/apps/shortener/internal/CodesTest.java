package dev.hotpath.apps.shortener.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.HashSet;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

class CodesTest {
    private final ScrambledCodes codes = new ScrambledCodes("secret of this data dir".getBytes(StandardCharsets.UTF_8));

    @Test
    void encodeAndDecodeInvertEachOtherOnTheFirstMillionIdsWithoutCollisions() {
        // A Feistel network is a bijection by construction; this checks the code: 2^20 ids, each
        // decoding back to itself, no two codes alike.
        Set<Long> seen = new HashSet<>();
        for (long id = 0; id < (1 << 20); id++) {
            String code = codes.encode(id);
            assertThat(code).hasSize(ScrambledCodes.LENGTH);
            assertThat(codes.decode(CodeSpan.of(code))).isEqualTo(id);
            seen.add(codes.decode(CodeSpan.of(code)));
        }
        assertThat(seen).hasSize(1 << 20);
    }

    @Test
    void neighbouringIdsGetUnrelatedCodes() {
        String a = codes.encode(1000);
        String b = codes.encode(1001);
        int samePositions = 0;
        for (int i = 0; i < a.length(); i++) {
            samePositions += a.charAt(i) == b.charAt(i) ? 1 : 0;
        }
        assertThat(samePositions).isLessThan(4);
    }

    @Test
    void anotherSecretGivesOtherCodes() {
        ScrambledCodes other = new ScrambledCodes("another secret".getBytes(StandardCharsets.UTF_8));
        int same = 0;
        for (long id = 0; id < 1000; id++) {
            same += other.encode(id).equals(codes.encode(id)) ? 1 : 0;
        }
        assertThat(same).isZero();
    }

    @Property(tries = 5000, seed = "20261130")
    void decodeInvertsEncodeAcrossTheWholeDomain(@ForAll @LongRange(min = 0, max = (1L << 47) - 1) long id) {
        assertThat(codes.decode(CodeSpan.of(codes.encode(id)))).isEqualTo(id);
    }

    @Property(tries = 5000, seed = "20261130")
    void decodeMapsEveryEightCharacterStringToADistinctIdOrRejectsIt(@ForAll @StringLength(8) String s) {
        long id = codes.decode(CodeSpan.of(s));
        if (id >= 0) {
            assertThat(id).isLessThan(1L << 47);
            assertThat(codes.encode(id)).isEqualTo(s);
        } else {
            assertThat(ScrambledCodes.hasShape(CodeSpan.of(s)) && base62Value(s) < (1L << 47)).isFalse();
        }
    }

    @Test
    void rejectsEveryStringThatIsNotACode() {
        for (String s : new String[] {"", "abc", "abcdefg", "abcdefghi", "abcd-fgh", "abcd efg", "ÿbcdefgh"}) {
            assertThat(codes.decode(CodeSpan.of(s))).as(s).isEqualTo(ScrambledCodes.NOT_SHAPED);
        }
        assertThat(codes.decode(CodeSpan.of("zzzzzzzz"))).isEqualTo(ScrambledCodes.NOT_A_CODE);
    }

    @Test
    void sequentialCodesAreBase62WithoutLeadingZeros() {
        assertThat(SequentialCodes.encode(0)).isEqualTo("0");
        assertThat(SequentialCodes.encode(61)).isEqualTo("z");
        assertThat(SequentialCodes.encode(62)).isEqualTo("10");
        assertThat(SequentialCodes.decode(CodeSpan.of("10"))).isEqualTo(62);
        assertThat(SequentialCodes.decode(CodeSpan.of("010"))).isEqualTo(-1);
        assertThat(SequentialCodes.decode(CodeSpan.of("zzzzzzzzzzz"))).isEqualTo(-1);
        assertThat(SequentialCodes.decode(CodeSpan.of("a-b"))).isEqualTo(-1);
        BitSet seen = new BitSet();
        for (int id = 0; id < 100_000; id++) {
            long back = SequentialCodes.decode(CodeSpan.of(SequentialCodes.encode(id)));
            assertThat(back).isEqualTo(id);
            seen.set((int) back);
        }
        assertThat(seen.cardinality()).isEqualTo(100_000);
    }

    private static long base62Value(String s) {
        long v = 0;
        for (int i = 0; i < s.length(); i++) {
            v = v * 62 + Base62.ALPHABET.indexOf(s.charAt(i));
        }
        return v;
    }
}
