package dev.hotpath.bench.http.internal;

import dev.hotpath.http.HeaderArena;
import dev.hotpath.http.Response;
import dev.hotpath.http.internal.HttpDate;
import dev.hotpath.http.internal.ResponseEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Encoding one response into an outbound direct buffer: a constant {@code pong} and a 200-byte JSON
 * answer. With {@code -prof gc}: nothing allocated per response.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--sun-misc-unsafe-memory-access=allow", "--enable-native-access=ALL-UNNAMED"})
public class ResponseEncoderBenchmark {
    @Param({"pong", "json-200"})
    public String response;

    private final HttpDate date = new HttpDate(Clock.systemUTC());
    private Response prepared;
    private ByteBuf out;

    @Setup(Level.Trial)
    public void setUp() {
        prepared = response.equals("pong")
            ? Response.of(200, "text/plain", "pong".getBytes(StandardCharsets.US_ASCII))
            : Response.builder(201).header("Location", "/api/links/x7Kp2QaZ").header("Cache-Control", "no-store")
                .body("application/json", RequestSamples.JSON_BODY.getBytes(StandardCharsets.US_ASCII));
        out = PooledByteBufAllocator.DEFAULT.directBuffer(4096);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        out.release();
    }

    /** A shortener redirect from a {@link HeaderArena} value, as a direct handler answers {@code GET /{code}}. */
    @Benchmark
    public int redirect(RedirectState state) {
        out.clear();
        ResponseEncoder.encodeRedirect(out, 302, state.arena, state.location, date, false, false);
        return out.writerIndex();
    }

    /** An arena holding one typical long URL (70 bytes, the mean of the scale benchmark's URLs). */
    @State(Scope.Benchmark)
    public static class RedirectState {
        final HeaderArena arena = new HeaderArena();
        final long location = arena.add("https://www.example.com/articles/2026/11/30/a-fairly-typical-path?ref=x1");
    }

    @Benchmark
    public int encode() {
        out.clear();
        ResponseEncoder.encode(out, prepared, date, false, false, false);
        return out.writerIndex();
    }
}
