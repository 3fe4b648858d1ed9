package dev.hotpath.cli;

import dev.hotpath.loadgen.LoadRun;
import dev.hotpath.loadgen.MeasuredPeriod;
import dev.hotpath.loadgen.Progress;
import dev.hotpath.loadgen.RunConfig;
import dev.hotpath.loadgen.RunResult;
import dev.hotpath.loadgen.Scenario;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One load run against a server started for it alone, as {@code bench compare}, {@code suite} and
 * {@code engines} make them, or against a server {@link #start}ed once for several runs
 * ({@code bench compare --keep-servers}): the server on a free port with a fresh data directory, the
 * run's files saved, the server's CPU time read when the measured period starts and ends (for CPU per
 * request, the figure a noisy machine moves least) and its peak RSS so far read when the run ends. The
 * data directory is deleted when the server stops; the server's output stays next to the runs' files.
 *
 * @param result what the load run measured
 * @param cpuNanos the server's CPU time over the measured period, -1 when unknown
 * @param peakRssBytes the server's peak resident set from its start to the end of this run, -1 when unknown
 * @param dir where the run's files are
 */
record ServerRun(RunResult result, long cpuNanos, long peakRssBytes, Path dir) {
    /** Makes the run's scenario once the server is up: a scenario may read what the server wrote, such as its key. */
    @FunctionalInterface
    interface ScenarioSource {
        Scenario open(Path dataDir) throws IOException;
    }

    /**
     * Starts the server of {@code command} ({@code {port}} and {@code {data}} replaced) with its data in
     * {@code <parent>/<name>-data} and its output in {@code <parent>/<name>.server.log}, runs
     * {@code config} against it, saves the run's files under {@code <parent>/<name>/} and stops the server.
     *
     * @throws IOException when the server does not start, or the scenario cannot be prepared
     */
    static ServerRun measure(String command, Path parent, String name, Duration readyTimeout, RunConfig config,
                             ScenarioSource scenario, String recordedCommand) throws IOException {
        try (Started started = start(command, parent, name, readyTimeout)) {
            return measure(started.server(), parent, name, config, scenario, recordedCommand);
        }
    }

    /**
     * Starts the server of {@code command} for one or more runs ({@link #measure(ServerUnderTest, Path,
     * String, RunConfig, ScenarioSource, String)}), with its data in {@code <parent>/<name>-data} and its
     * output in {@code <parent>/<name>.server.log}.
     */
    static Started start(String command, Path parent, String name, Duration readyTimeout) throws IOException {
        Path data = Files.createDirectories(parent.resolve(name + "-data"));
        try {
            return new Started(ServerUnderTest.start(command, data, parent.resolve(name + ".server.log"), readyTimeout));
        } catch (IOException | RuntimeException e) {
            try {
                deleteTree(data);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** A server {@link #start}ed for runs; closing it stops the server and deletes its data directory. */
    record Started(ServerUnderTest server) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            try {
                server.close();
            } finally {
                deleteTree(server.dataDir);
            }
        }
    }

    /** Runs {@code config} against a started {@code server} and saves the run's files under {@code <parent>/<name>/}. */
    static ServerRun measure(ServerUnderTest server, Path parent, String name, RunConfig config, ScenarioSource scenario,
                             String recordedCommand) throws IOException {
        if (!server.isAlive()) {
            throw new IOException("the server for run " + name + " has stopped (its output: " + server.log + ")");
        }
        ServerCpu cpu = new ServerCpu(server);
        RunResult result = LoadRun.run(config.withTarget("127.0.0.1", server.port), scenario.open(server.dataDir),
            Progress.NONE, cpu);
        long peakRss = server.peakRssBytes();
        return new ServerRun(result, cpu.nanos(), peakRss, BenchCommand.save(result, parent.resolve(name), recordedCommand));
    }

    /** Server CPU per answer of the measured period, NaN when either is unknown. */
    double cpuMicrosPerRequest() {
        long answered = result.measured().answered();
        return cpuNanos < 0 || answered == 0 ? Double.NaN : cpuNanos / 1000.0 / answered;
    }

    /** Reads the server's CPU time when the measured period starts and ends. */
    private static final class ServerCpu implements MeasuredPeriod {
        private final ServerUnderTest server;
        private long atStart = -1;
        private long atEnd = -1;

        ServerCpu(ServerUnderTest server) {
            this.server = server;
        }

        @Override
        public void started() {
            atStart = server.cpuNanos();
        }

        @Override
        public void ended() {
            atEnd = server.cpuNanos();
        }

        long nanos() {
            return atStart < 0 || atEnd < 0 ? -1 : atEnd - atStart;
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        List<Path> paths = new ArrayList<>();
        try (var walk = Files.walk(root)) {
            walk.forEach(paths::add);
        }
        for (int i = paths.size() - 1; i >= 0; i--) {
            Files.deleteIfExists(paths.get(i));
        }
    }
}
