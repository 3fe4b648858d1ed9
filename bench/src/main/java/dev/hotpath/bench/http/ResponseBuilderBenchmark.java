package dev.hotpath.bench.http;

import dev.hotpath.http.Response;
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
 * Building a dynamic {@link Response}: its headers validated and written, then one copy of the body
 * into the wire array. With {@code -prof gc}: {@code buildJson} ({@link Response#of}) allocates the wire
 * array alone; {@code buildCreated} the wire array and the builder's own.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ResponseBuilderBenchmark {
    /** Building a dynamic answer: a 4,700-byte JSON body (a social feed's size) into a {@link Response}. */
    @Benchmark
    public Response buildJson(FeedBody feed) {
        return Response.of(200, "application/json", feed.body);
    }

    /** Building a shortener create answer: 201, {@code Location}, {@code Cache-Control}, a 200-byte link. */
    @Benchmark
    public Response buildCreated(LinkBody link) {
        return Response.builder(201).header("Location", "/api/links/Xk3b9QzT").header("Cache-Control", "no-store")
            .body("application/json", link.body);
    }

    /** A body the size of a shortener link object. */
    @State(Scope.Benchmark)
    public static class LinkBody {
        final byte[] body = ("{\"code\":\"Xk3b9QzT\",\"short_url\":\"http://127.0.0.1:8080/Xk3b9QzT\",\"long_url\":"
            + "\"https://example.com/some/path?q=1\",\"created_at\":\"2026-11-30T04:00:00.123Z\",\"expires_at\":null,"
            + "\"protected\":false,\"visits\":0}").getBytes(StandardCharsets.US_ASCII);
    }

    /** A body the size of a social feed answer. */
    @State(Scope.Benchmark)
    public static class FeedBody {
        final byte[] body = "{\"id\":1,\"body\":\"x\"}".repeat(235).getBytes(StandardCharsets.US_ASCII);
    }
}
