package dev.hotpath.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The servers of {@code hotpath bench engines}, which scenarios each runs, and the command that starts
 * each. Every default command is the same JVM with the same flags, pinned to core 0
 * ({@link ServerUnderTest#pinnedJava()}), so that CPU and memory compare the servers, not their launch.
 * A command may hold {@code {store}}: the store flags of the scenario, {@code --store sqlite --data
 * {data}} for s4 and otherwise {@code --store memory} for hotpath and nothing for a peer; and
 * {@code {jvm}} where flags for its JVM may go (every default command has it, right after the JVM's
 * own flags; {@link AotCaches} puts its cache there).
 *
 * <table>
 *   <caption>Servers</caption>
 *   <tr><th>Name</th><th>Scenarios</th><th>Default command</th></tr>
 *   <tr><td>hotpath</td><td>all</td>
 *     <td>this build: {@code serve users --event-loops 1 --access-log {data}/access.log {store}}</td></tr>
 *   <tr><td>netty</td><td>s1–s3</td><td>{@code PeerMain netty --port {port} --access-log {data}/access.log {store}} from the peers jar</td></tr>
 *   <tr><td>vertx, helidon</td><td>s1–s4</td><td>the same, {@code PeerMain vertx} or {@code PeerMain helidon}</td></tr>
 *   <tr><td>raw</td><td>p64</td><td>{@code RawSocketServer {port} 1} from the peers jar</td></tr>
 * </table>
 */
final class EngineServers {
    static final List<String> NAMES = List.of("hotpath", "netty", "vertx", "helidon", "raw");
    /** Where a command takes flags for its JVM. */
    static final String JVM_FLAGS = "{jvm}";
    private static final Set<EngineScenario> UP_TO_S3 = EnumSet.of(EngineScenario.S1, EngineScenario.S2, EngineScenario.S3);
    private static final Set<EngineScenario> UP_TO_S4 = EnumSet.range(EngineScenario.S1, EngineScenario.S4);

    private final Map<String, String> overrides;
    private final Path peersJar;

    /**
     * @param overrides commands given for some servers, by name, used instead of their defaults
     * @param peersJar the bench module's jar, holding the peers and the raw socket server
     */
    EngineServers(Map<String, String> overrides, Path peersJar) {
        this.overrides = Map.copyOf(overrides);
        this.peersJar = peersJar;
    }

    /** Whether {@code server} takes part in {@code scenario}. */
    static boolean runs(String server, EngineScenario scenario) {
        return switch (server) {
            case "hotpath" -> true;
            case "netty" -> UP_TO_S3.contains(scenario);
            case "raw" -> scenario == EngineScenario.P64;
            default -> UP_TO_S4.contains(scenario);
        };
    }

    /** Whether starting {@code server} needs the peers jar: a peer without a command of its own. */
    boolean needsPeersJar(String server) {
        return !server.equals("hotpath") && !overrides.containsKey(server);
    }

    /** Whether the peers jar is there. */
    boolean hasPeersJar() {
        return Files.isRegularFile(peersJar);
    }

    Path peersJar() {
        return peersJar;
    }

    /** The command that starts {@code server} for {@code scenario}, with {@code {port}} and {@code {data}} still in it. */
    String command(String server, EngineScenario scenario) {
        return command(server, scenario, "");
    }

    /** {@link #command(String, EngineScenario)} with {@code jvmFlags} where the command has {@code {jvm}}. */
    String command(String server, EngineScenario scenario, String jvmFlags) {
        String store = scenario.sqlite ? "--store sqlite --data {data}" : server.equals("hotpath") ? "--store memory" : "";
        return withJvmFlags(template(server), jvmFlags).replace("{store}", store).strip();
    }

    /** Whether {@code server}'s command has a place for JVM flags. */
    boolean takesJvmFlags(String server) {
        return template(server).contains(JVM_FLAGS);
    }

    /** {@code command} with {@code {jvm}} replaced by {@code flags} (which may be empty). */
    static String withJvmFlags(String command, String flags) {
        return command.replace(JVM_FLAGS + " ", flags.isEmpty() ? "" : flags + " ").replace(JVM_FLAGS, flags);
    }

    /** The command of {@code server} as given or by default, {@code {store}} still in it. */
    String template(String server) {
        String given = overrides.get(server);
        if (given != null) {
            return given;
        }
        String java = ServerUnderTest.pinnedJava() + " " + JVM_FLAGS;
        return switch (server) {
            case "hotpath" -> java + " -jar " + ServerUnderTest.thisJar()
                + " serve users --bind 127.0.0.1:{port} --event-loops 1 --access-log {data}/access.log {store}";
            case "raw" -> java + " -cp " + peersJar + " dev.hotpath.bench.RawSocketServer {port} 1";
            default -> java + " -cp " + peersJar + " dev.hotpath.bench.peers.PeerMain " + server
                + " --port {port} --access-log {data}/access.log {store}";
        };
    }

    /**
     * Where the peers jar is unless told: {@code bench/target/benchmarks.jar} in the repository this
     * build's jar ({@code cli/target/hotpath.jar}) or classes ({@code cli/target/classes}) belong to.
     */
    static Path defaultPeersJar() {
        return ServerUnderTest.thisJar().toAbsolutePath().resolve("../../../bench/target/benchmarks.jar").normalize();
    }
}
