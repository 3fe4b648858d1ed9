package dev.hotpath.bench.shortener;

import dev.hotpath.apps.shortener.internal.QrCodes;
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
 * Drawing a QR code as SVG ({@code GET /api/links/{code}/qr.svg} without a matching {@code ETag}):
 * what one costs the thread that draws it, for a typical short URL and for a long alias. Measured when
 * drawing ran on the event loop (126 and 324 µs), which is why it no longer does.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class QrCodesBenchmark {
    private int next;

    @Benchmark
    public String shortUrl() {
        return QrCodes.svg("https://sho.rt/x7Kp2Q" + (char) ('a' + (next++ & 15)) + "Z");
    }

    @Benchmark
    public String longAlias() {
        return QrCodes.svg("https://links.example.com/" + "launch-2026-spring-campaign-".repeat(2) + (next++ & 15));
    }
}
