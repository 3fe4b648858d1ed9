package dev.hotpath.loadgen;

import dev.hotpath.loadgen.internal.ClientTransport;
import dev.hotpath.loadgen.internal.LoadConnection;
import dev.hotpath.loadgen.internal.LoopStats;
import dev.hotpath.loadgen.internal.Schedule;
import dev.hotpath.loadgen.internal.Stats;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs a {@link Scenario} against a target: prepare, open every connection, start them together,
 * measure, drain, then verify what was written, and return everything counted. The generator is one
 * Netty client ({@code --event-loops} threads) on the best transport here.
 */
public final class LoadRun {
    private static final long START_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** Connections and depth of the verification pass, which must not be what takes long. */
    private static final int VERIFY_CONNECTIONS = 16;
    private static final int VERIFY_PIPELINE = 16;
    /** The least time from the start of one {@link Readback} pass to the start of the next. */
    public static final Duration READBACK_PASS_INTERVAL = Duration.ofMillis(20);
    /**
     * Connections per loopback source address: under the 28,232 ephemeral ports Linux gives one
     * source address towards one destination, so 100,000 users spread over 127.0.0.2, 127.0.0.3, ...
     */
    private static final int CONNECTIONS_PER_SOURCE = 20_000;

    private LoadRun() {
    }

    public static RunResult run(RunConfig config, Scenario scenario, Progress progress) throws IOException {
        return run(config, scenario, progress, MeasuredPeriod.NONE);
    }

    /** A run that tells {@code period} when its measured period starts and ends. */
    public static RunResult run(RunConfig config, Scenario scenario, Progress progress, MeasuredPeriod period)
        throws IOException {
        Workload workload = scenario.prepare(config);
        Instant startedAt = Instant.now();
        ClientTransport transport = ClientTransport.best();
        try (GeneratorPauses pauses = GeneratorPauses.listen()) {
            Phase main = execute(config, workload, transport, progress, MeasuredPeriod.both(pauses, period));
            Stats verification = null;
            EndToEnd endToEnd = null;
            RunConfig verifyConfig = RunConfig.saturate(config.host(), config.port(), VERIFY_CONNECTIONS,
                VERIFY_PIPELINE, Duration.ofHours(1));
            Readback readback = scenario.readback();
            Workload verify = readback == null ? scenario.verification() : null;
            if (readback != null) {
                verification = new Stats();
                endToEnd = readBack(readback, verifyConfig, transport, verification);
            } else if (verify != null) {
                verification = execute(verifyConfig, verify, transport, Progress.NONE, MeasuredPeriod.NONE).measured;
            }
            long planned = config.mode() == Mode.RATE ? main.schedule.plannedMeasured() : -1;
            double seconds = Math.max(0, main.endNanos - main.schedule.measureStartNanos()) / 1e9;
            return new RunResult(config, scenario.name(), startedAt, planned, Tally.of(main.measured),
                Tally.of(main.warmup), seconds, verification == null ? null : Tally.of(verification), transport.name(),
                pauses.summary(), firstError(main, verification, endToEnd), endToEnd);
        }
    }

    /** Runs the passes of {@code readback} until none is missing or its deadline has passed, counting into {@code all}. */
    private static EndToEnd readBack(Readback readback, RunConfig config, ClientTransport transport, Stats all) {
        long first = System.nanoTime();
        long deadline = first + readback.deadline().toNanos();
        int passes = 0;
        for (Workload pass = readback.nextPass(); pass != null; pass = readback.nextPass()) {
            long started = System.nanoTime();
            all.add(execute(config, pass, transport, Progress.NONE, MeasuredPeriod.NONE).measured);
            passes++;
            long next = Math.max(System.nanoTime(), started + READBACK_PASS_INTERVAL.toNanos());
            if (next - deadline >= 0 || readback.missing() == 0) {
                break;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(next - System.nanoTime());
        }
        org.HdrHistogram.Histogram lag = new org.HdrHistogram.Histogram(3);
        for (long nanos : readback.lagNanos()) {
            lag.recordValue(Math.max(0, nanos / 1000));
        }
        return new EndToEnd(readback.deadline(), readback.acknowledged(), readback.found(), readback.missing(),
            readback.firstMissing(), passes, all.attempted, new Latency(lag), readback.resolutionNanos() / 1e6);
    }

    /** The earliest problem of the warm-up or measured period, else the verification's; null when none. */
    private static String firstError(Phase main, Stats verification, EndToEnd endToEnd) {
        Stats earlier = main.warmup.firstErrorAtNanos <= main.measured.firstErrorAtNanos ? main.warmup : main.measured;
        if (earlier.firstError == null && verification != null && verification.firstError != null) {
            return verification.firstError;
        }
        if (earlier.firstError == null && endToEnd != null && endToEnd.missing() > 0) {
            return "missing at the drain deadline: " + endToEnd.firstMissing();
        }
        return earlier.firstError;
    }

    /**
     * @param endNanos when the measured period really ended: the schedule's end, or earlier when a finite
     *     workload ran out and every connection had its answers before then
     */
    private record Phase(Schedule schedule, Stats measured, Stats warmup, long endNanos) {
    }

    private static Phase execute(RunConfig config, Workload workload, ClientTransport transport, Progress progress,
                                 MeasuredPeriod period) {
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(config.eventLoops(), transport.ioHandlerFactory());
        int n = config.connections();
        LoadConnection[] connections = new LoadConnection[n];
        Stats measured = new Stats();
        Stats warmup = new Stats();
        List<EventLoop> loops = new ArrayList<>();
        group.forEach(executor -> loops.add((EventLoop) executor));
        LoopStats[] loopStats = new LoopStats[loops.size()];
        Arrays.setAll(loopStats, i -> new LoopStats());
        try {
            CountDownLatch connected = new CountDownLatch(n);
            CountDownLatch done = new CountDownLatch(n);
            Bootstrap bootstrap = new Bootstrap().group(group).channel(transport.channel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) CONNECT_TIMEOUT.toMillis());
            ChannelFuture[] futures = new ChannelFuture[n];
            boolean spreadSources = n > CONNECTIONS_PER_SOURCE && config.host().startsWith("127.");
            for (int i = 0; i < n; i++) {
                int loop = i % loops.size();
                connections[i] = new LoadConnection(config, workload, i, connectionSeed(i), loopStats[loop], connected,
                    done);
                Bootstrap forLoop = bootstrap.clone(loops.get(loop)).handler(connections[i]);
                InetSocketAddress remote = new InetSocketAddress(config.host(), config.port());
                futures[i] = spreadSources ? forLoop.connect(remote, new InetSocketAddress(sourceAddress(i), 0))
                    : forLoop.connect(remote);
            }
            long failedConnects = 0;
            String firstConnectError = null;
            for (ChannelFuture future : futures) {
                if (!future.awaitUninterruptibly(CONNECT_TIMEOUT.toMillis() + 1000) || !future.isSuccess()) {
                    failedConnects++;
                    if (firstConnectError == null) {
                        firstConnectError = future.cause() == null ? "timed out" : String.valueOf(future.cause().getMessage());
                    }
                }
            }
            long now = System.nanoTime();
            long start = now + START_DELAY_NANOS;
            long measureStart = start + config.warmup().toNanos();
            Schedule schedule = new Schedule(start, measureStart, start + config.span().toNanos(), config.rps());
            if (failedConnects > 0 || !awaitQuietly(connected, CONNECT_TIMEOUT.toNanos())) {
                measured.errors[ErrorKind.CONNECT_FAILED.ordinal()] += Math.max(1, failedConnects);
                measured.firstError = "connect_failed: " + failedConnects + " of " + n + " connections to "
                    + config.host() + ":" + config.port() + " failed (" + firstConnectError + ")";
                return new Phase(schedule, measured, warmup, schedule.endNanos());
            }
            for (LoadConnection connection : connections) {
                connection.start(schedule);
            }
            long deadline = schedule.endNanos() + config.drainTimeout().toNanos();
            PeriodMarks marks = new PeriodMarks(schedule, period);
            long ended = schedule.endNanos();
            while (!awaitQuietly(done, marks.waitNanos(deadline))) {
                marks.tell();
                if (System.nanoTime() >= deadline) {
                    for (LoadConnection connection : connections) {
                        connection.onLoop(connection::expire);
                    }
                    awaitQuietly(done, TimeUnit.SECONDS.toNanos(10));
                    break;
                }
                report(progress, loopStats, schedule);
            }
            if (done.getCount() == 0) {
                ended = Math.min(ended, System.nanoTime());
            }
            marks.finish();
            for (LoadConnection connection : connections) {
                connection.close();
            }
            return new Phase(schedule, measured, warmup, ended);
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            for (LoopStats stats : loopStats) {
                measured.add(stats.measured());
                warmup.add(stats.warmup());
            }
        }
    }

    /** Tells a {@link MeasuredPeriod} its start and end while the run's thread waits for the connections. */
    private static final class PeriodMarks {
        private final long[] at;
        private final MeasuredPeriod period;
        private int told;

        PeriodMarks(Schedule schedule, MeasuredPeriod period) {
            this.at = new long[] {schedule.measureStartNanos(), schedule.endNanos()};
            this.period = period;
        }

        /** How long to wait for the connections: at most a second, and not past the next mark. */
        long waitNanos(long deadline) {
            long now = System.nanoTime();
            long until = Math.min(deadline, told < at.length ? at[told] : deadline);
            return Math.min(TimeUnit.SECONDS.toNanos(1), Math.max(1, until - now));
        }

        void tell() {
            long now = System.nanoTime();
            while (told < at.length && now >= at[told]) {
                if (told++ == 0) {
                    period.started();
                } else {
                    period.ended();
                }
            }
        }

        /** The run is over: an end not yet told is told now. */
        void finish() {
            tell();
            if (told < at.length) {
                told = at.length;
                period.ended();
            }
        }
    }

    /** 127.0.0.2 for the first {@link #CONNECTIONS_PER_SOURCE} connections, then 127.0.0.3, ... */
    static InetAddress sourceAddress(int connection) {
        int n = 2 + connection / CONNECTIONS_PER_SOURCE;
        try {
            return InetAddress.getByAddress(new byte[] {127, 0, (byte) (n >>> 8), (byte) n});
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A racy snapshot for the progress line: counts may be a little off, which a display can afford. */
    private static void report(Progress progress, LoopStats[] loops, Schedule schedule) {
        if (progress == Progress.NONE) {
            return;
        }
        long answered = 0;
        long errors = 0;
        long p99 = 0;
        for (LoopStats loop : loops) {
            Stats s = loop.measured();
            answered += s.ok + s.unexpectedStatus + s.mismatches;
            errors += s.errorCount() + s.unexpectedStatus + s.mismatches + s.dropped;
            p99 = Math.max(p99, s.latency.getValueAtPercentile(99));
        }
        progress.update((System.nanoTime() - schedule.startNanos()) / 1e9, answered, errors, p99 / 1000.0);
    }

    private static boolean awaitQuietly(CountDownLatch latch, long nanos) {
        try {
            return latch.await(nanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return latch.getCount() == 0;
        }
    }

    /**
     * Connection {@code i}'s random seed. Not a multiple of {@code SplittableRandom}'s own increment (the
     * golden gamma): seeds {@code gamma * (i + 1)} made every connection draw connection 0's sequence
     * shifted by {@code i} steps, so 64 connections asked for the same link one after another, a herd of
     * cold misses that no real client population makes.
     */
    static long connectionSeed(int i) {
        return 0xBF58476D1CE4E5B9L * (i + 1) + 0x94D049BB133111EBL;
    }
}
