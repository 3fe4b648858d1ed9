package dev.hotpath.bench.http.internal;

import dev.hotpath.http.ServerLimits;
import dev.hotpath.http.internal.RequestDecoder;
import dev.hotpath.http.internal.RequestHead;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
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
 * Decoding one whole request the way a connection does (head, body decision, body, consume), over a
 * pooled direct buffer as the socket delivers it. Run with {@code -prof gc}: after warm-up the
 * decoder must allocate nothing per request ({@code gc.alloc.rate.norm} ≈ 0 B/op).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--sun-misc-unsafe-memory-access=allow", "--enable-native-access=ALL-UNNAMED"})
public class RequestDecoderBenchmark {
    /** What wrk sends for {@code /ping}, and a JSON POST with a 200-byte body as an API client sends it. */
    @Param({"get", "post-json"})
    public String request;

    private final Object owner = new Object();
    private ByteBuf buffer;
    private RequestDecoder decoder;
    private RequestHead head;

    @Setup(Level.Trial)
    public void setUp() {
        byte[] bytes = (request.equals("get") ? RequestSamples.GET : RequestSamples.POST_JSON)
            .getBytes(StandardCharsets.US_ASCII);
        buffer = PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length);
        buffer.writeBytes(bytes);
        decoder = new RequestDecoder(ServerLimits.DEFAULTS);
        head = new RequestHead(ServerLimits.DEFAULTS);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        buffer.release();
    }

    @Benchmark
    public int decode() {
        buffer.readerIndex(0);
        if (decoder.decode(buffer, head, owner) != RequestDecoder.Event.HEAD) {
            throw new IllegalStateException("no head");
        }
        decoder.acceptBody(ServerLimits.MAX_BODY_BYTES);
        if (decoder.decode(buffer, head, owner) != RequestDecoder.Event.REQUEST) {
            throw new IllegalStateException("no request");
        }
        decoder.attachBody(buffer, head);
        int bodyLength = head.bodyLength();
        head.release();
        decoder.finishRequest(buffer);
        return bodyLength;
    }
}
