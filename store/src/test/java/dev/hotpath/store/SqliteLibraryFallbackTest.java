package dev.hotpath.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SqliteLibrary}'s other choices, each in a JVM of its own ({@link SqliteLibraryProbe}): it
 * never takes a library over from the driver, nor from the user, and a build without a library of its
 * own runs on the driver's.
 */
class SqliteLibraryFallbackTest {
    @Test
    void aConnectionOpenedBeforeInstallKeepsTheDriversBundledBuild(@TempDir Path dir) throws Exception {
        Probe probe = probe(dir, classPath(), List.of(), "connection-first");

        assertThat(probe.lines()).contains("build=DRIVER_BUNDLED", "query=ok", "row-query=JdbcRowQuery 42 42");
        assertThat(probe.mapped()).isNotEmpty().noneSatisfy(file -> assertThat(file).contains("hotpath-sqlite"));
        assertThat(probe.output()).contains("sqlite-jdbc did not load hotpath's SQLite build");
    }

    @Test
    void aLibraryTheUserNamesIsTheOneLoaded(@TempDir Path dir) throws Exception {
        Path own = Files.createDirectories(dir.resolve("own")).resolve("libsqlitejdbc.so");
        try (InputStream library = SqliteLibraryFallbackTest.class.getResourceAsStream(SqliteLibrary.resource())) {
            assertThat(library).as("the build's own SQLite library").isNotNull();
            Files.copy(library, own);
        }

        Probe probe = probe(dir, classPath(), List.of("-Dorg.sqlite.lib.path=" + own.getParent(), "-Dorg.sqlite.lib.name=libsqlitejdbc.so"), "install");

        assertThat(probe.lines()).contains("build=CONFIGURED", "query=ok", "row-query=JdbcRowQuery 42 42");
        assertThat(probe.mapped()).containsExactly(own.toRealPath().toString());
    }

    @Test
    void aBuildWithoutItsOwnLibraryRunsOnTheDriversBundledBuild(@TempDir Path dir) throws Exception {
        Path classes = dir.resolve("classes");
        List<String> classPath = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path library = Path.of(entry, SqliteLibrary.resource());
            if (Files.isRegularFile(library)) {
                copyWithout(Path.of(entry), library.getParent(), classes);
                classPath.add(classes.toString());
            } else {
                classPath.add(entry);
            }
        }
        assertThat(classPath).as("the class path held the build's own SQLite library in a directory").contains(classes.toString());

        Probe probe = probe(dir, classPath, List.of(), "install");

        assertThat(probe.lines()).contains("build=DRIVER_BUNDLED", "query=ok", "row-query=JdbcRowQuery 42 42");
        assertThat(probe.mapped()).isNotEmpty().noneSatisfy(file -> assertThat(file).contains("hotpath-sqlite"));
        assertThat(probe.output()).contains("this jar has none of its own");
    }

    /** Copies the tree {@code from} to {@code to}, leaving out {@code left} and what is under it. */
    private static void copyWithout(Path from, Path left, Path to) throws IOException {
        try (Stream<Path> tree = Files.walk(from)) {
            for (Path source : (Iterable<Path>) tree.filter(path -> !path.startsWith(left))::iterator) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                }
            }
        }
    }

    private record Probe(String output) {
        List<String> lines() {
            return output.lines().toList();
        }

        List<String> mapped() {
            return lines().stream().filter(line -> line.startsWith("mapped=")).map(line -> line.substring("mapped=".length())).toList();
        }
    }

    private static List<String> classPath() {
        return List.of(System.getProperty("java.class.path").split(File.pathSeparator));
    }

    /**
     * Runs {@link SqliteLibraryProbe} in a new JVM on {@code classPath} with {@code properties}, its
     * temporary files under {@code dir}.
     */
    private static Probe probe(Path dir, List<String> classPath, List<String> properties, String mode)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(),
            "--enable-native-access=ALL-UNNAMED", "-Djava.io.tmpdir=" + dir));
        command.addAll(properties);
        command.addAll(List.of("-cp", String.join(File.pathSeparator, classPath), SqliteLibraryProbe.class.getName(),
            mode, dir.resolve("probe.db").toString()));
        Path log = dir.resolve("probe.log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean exited = process.waitFor(2, TimeUnit.MINUTES);
        if (!exited) {
            process.destroyForcibly();
        }
        String output = Files.readString(log);
        assertThat(exited).as("the probe exited; its output:%n%s", output).isTrue();
        assertThat(process.exitValue()).as("the probe's exit status; its output:%n%s", output).isZero();
        return new Probe(output);
    }
}
