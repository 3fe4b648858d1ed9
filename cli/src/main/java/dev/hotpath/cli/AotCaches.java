package dev.hotpath.cli;

import dev.hotpath.loadgen.RunConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The JDK ahead-of-time caches of {@code hotpath bench engines --aot}: one per server and scenario,
 * recorded by a training run of that scenario (a short closed-loop probe, not counted) on a server
 * started with {@code -XX:AOTCacheOutput}, which its JVM writes as it exits; every counted run of that
 * server and scenario then starts with {@code -XX:AOTCache}. The cache maps the classes the training
 * loaded and linked instead of reading them from the jar, which changes a server's start and its memory
 * (the launcher offers the same for {@code serve}: {@code HOTPATH_AOT_TRAIN=1}). Every JVM server gets
 * it the same way; a command without {@link EngineServers#JVM_FLAGS} (another runtime, or a
 * {@code --server} command that leaves it out) runs without one.
 *
 * <p>Costs one more server start and {@value #TRAINING_SECONDS} s of load per server and scenario, plus
 * the JVM's writing of the cache (a few seconds) and the file (25-30 MB) in the suite's directory.
 */
final class AotCaches {
    static final int TRAINING_SECONDS = 5;
    private static final Duration TRAINING_WARMUP = Duration.ofSeconds(2);

    private AotCaches() {
    }

    /**
     * Trains the cache of {@code server} for {@code scenario} into {@code dir}; returns the JVM flag that
     * uses it, or an empty string when the server's command takes no JVM flags.
     *
     * @throws IOException when the server does not start, or its JVM wrote no cache
     */
    static String train(EngineServers commands, String server, EngineScenario scenario, Path dir, Duration readyTimeout,
                        String token, String recordedCommand) throws IOException {
        if (!commands.takesJvmFlags(server)) {
            return "";
        }
        String name = scenario.id + "-" + server + "-aot";
        Path cache = dir.resolve(name + ".cache").toAbsolutePath();
        RunConfig training = EnginesCommand.saturation(scenario, TRAINING_WARMUP,
            Duration.ofSeconds(TRAINING_SECONDS).minus(TRAINING_WARMUP));
        ServerRun.measure(commands.command(server, scenario, "-XX:AOTCacheOutput=" + cache), dir, name, readyTimeout,
            training, data -> scenario.load(token), recordedCommand + " [" + name + "]");
        if (!Files.isRegularFile(cache)) {
            throw new IOException("the JVM of " + server + " wrote no AOT cache for " + scenario.id + " (its output: "
                + dir.resolve(name + ".server.log") + ")");
        }
        return "-XX:AOTCache=" + cache;
    }
}
