package dev.hotpath.bench.social;

import dev.hotpath.apps.social.TokenVerifier;
import dev.hotpath.apps.social.Tokens;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The per-request cost of checking a social bearer token (every authenticated request pays it; the
 * rules forbid caching a verification): time and bytes allocated per verification.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class TokenVerifierBenchmark {
    private static final byte[] SECRET = "twelve-dollar-challenge".getBytes(StandardCharsets.UTF_8);
    private static final long NOW = 1_796_000_000L;
    private final TokenVerifier verifier = new TokenVerifier(SECRET);
    private final String header = "Bearer " + new Tokens(SECRET).mint(12_345, "happy_otter_12345", NOW, NOW + 86_400);

    @Benchmark
    public long verify() {
        return verifier.verify(header, NOW).userId();
    }
}
