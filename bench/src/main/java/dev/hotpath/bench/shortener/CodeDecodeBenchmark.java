package dev.hotpath.bench.shortener;

import dev.hotpath.apps.shortener.internal.CodeSpan;
import dev.hotpath.apps.shortener.internal.ScrambledCodes;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Decoding a scrambled code to its link id, the arithmetic half of the redirect hot path: base62 of
 * eight bytes, then the keyed Feistel permutation backwards with cycle walking. A rotating set of codes
 * keeps the branch predictor from learning one walk length.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class CodeDecodeBenchmark {
    private final ScrambledCodes codes = new ScrambledCodes(new byte[32]);
    private CodeSpan[] spans;
    private int next;

    @Setup
    public void setUp() {
        spans = new CodeSpan[1024];
        for (int i = 0; i < spans.length; i++) {
            spans[i] = CodeSpan.of(codes.encode(i * 977L));
        }
    }

    @Benchmark
    public long decode() {
        CodeSpan span = spans[next++ & (spans.length - 1)];
        return codes.decode(span);
    }
}
