package dev.hotpath.apps.shortener.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Both code schemes. The properties run on seeded generators: each run checks the same
 * {@value #CASES} inputs, and a failure names the input that broke the property.
 */
class CodesTest {
    private static final long SEED = 20261130L;
    private static final int CASES = 5000;
    private final ScrambledCodes codes = new ScrambledCodes("secret of this data dir".getBytes(StandardCharsets.UTF_8));
    private final SequentialCodes sequential = new SequentialCodes();

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

    @Test
    void decodeInvertsEncodeAcrossTheWholeDomain() {
        SplittableRandom random = new SplittableRandom(SEED);
        List<Long> ids = new ArrayList<>(List.of(0L, 1L, ScrambledCodes.DOMAIN - 1));
        for (int i = 0; i < CASES; i++) {
            ids.add(random.nextLong(ScrambledCodes.DOMAIN));
        }
        for (long id : ids) {
            assertThat(codes.decode(CodeSpan.of(codes.encode(id)))).as("id %d", id).isEqualTo(id);
        }
    }

    @Test
    void decodeMapsEveryEightCharacterStringToADistinctIdOrRejectsIt() {
        SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < CASES; i++) {
            String s = eightCharacters(random);
            long id = codes.decode(CodeSpan.of(s));
            if (id >= 0) {
                assertThat(id).as("decoded \"%s\"", s).isLessThan(ScrambledCodes.DOMAIN);
                assertThat(codes.encode(id)).as("decoded \"%s\"", s).isEqualTo(s);
            } else {
                assertThat(codes.hasShape(CodeSpan.of(s)) && base62Value(s) < ScrambledCodes.DOMAIN)
                    .as("rejected \"%s\"", s).isFalse();
            }
        }
    }

    /** Eight characters, mostly of the code alphabet (so that most are shaped), some anything at all. */
    private static String eightCharacters(SplittableRandom random) {
        StringBuilder s = new StringBuilder(8);
        for (int i = 0; i < 8; i++) {
            s.append(random.nextInt(10) < 9 ? Base62.ALPHABET.charAt(random.nextInt(62)) : (char) random.nextInt(0x3000));
        }
        return s.toString();
    }

    @Test
    void rejectsEveryStringThatIsNotACode() {
        for (String s : new String[] {"", "abc", "abcdefg", "abcdefghi", "abcd-fgh", "abcd efg", "ÿbcdefgh"}) {
            assertThat(codes.decode(CodeSpan.of(s))).as(s).isEqualTo(CodeScheme.NOT_SHAPED);
        }
        assertThat(codes.decode(CodeSpan.of("zzzzzzzz"))).isEqualTo(CodeScheme.NOT_A_CODE);
    }

    @Test
    void sequentialCodesAreBase62WithoutLeadingZeros() {
        assertThat(sequential.encode(0)).isEqualTo("0");
        assertThat(sequential.encode(61)).isEqualTo("z");
        assertThat(sequential.encode(62)).isEqualTo("10");
        assertThat(sequential.decode(CodeSpan.of("10"))).isEqualTo(62);
        assertThat(sequential.decode(CodeSpan.of("010"))).isEqualTo(CodeScheme.NOT_A_CODE);
        assertThat(sequential.decode(CodeSpan.of("zzzzzzzzzzz"))).isEqualTo(CodeScheme.NOT_A_CODE);
        assertThat(sequential.decode(CodeSpan.of("a-b"))).isEqualTo(CodeScheme.NOT_SHAPED);
        BitSet seen = new BitSet();
        for (int id = 0; id < 100_000; id++) {
            long back = sequential.decode(CodeSpan.of(sequential.encode(id)));
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
