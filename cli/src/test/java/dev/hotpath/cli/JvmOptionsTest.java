package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The servers' JVM flags have one source, the repository's {@code jvm.options}: the launcher and the
 * bench scripts pass the file itself ({@code java @jvm.options}), the suite the copy in its jar.
 */
class JvmOptionsTest {
    private static final Path ROOT = StandaloneRepositoryTest.ROOT;
    private static final Path FILE = ROOT.resolve("jvm.options");

    @Test
    void theSuiteStartsServersWithTheFlagsOfTheRepositorysFile() throws Exception {
        List<String> flags = ServerUnderTest.parseJvmOptions(Files.readString(FILE));

        assertThat(flags).contains("--enable-native-access=ALL-UNNAMED",
            "-XX:CompileCommand=dontinline,io.netty.channel.uring.AbstractIoUringChannel::nextOpsId");
        assertThat(ServerUnderTest.JVM_OPTIONS).as("the copy the build put on the classpath").isEqualTo(flags);
        assertThat(ServerUnderTest.pinnedJava()).endsWith(" " + String.join(" ", flags));
    }

    @Test
    void aFlagPerLineWithCommentsAndBlankLinesSkipped() {
        assertThat(ServerUnderTest.parseJvmOptions("# why\n\n  -Xss1m  \n#-Xmx1g\n-Dx=y\n"))
            .containsExactly("-Xss1m", "-Dx=y");
        assertThatThrownBy(() -> ServerUnderTest.parseJvmOptions("-Xss1m # why\n"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-Xss1m # why");
    }

    @Test
    void everyJvmTheLauncherStartsGetsTheFile() throws Exception {
        List<String> execs = Files.readAllLines(ROOT.resolve("hotpath")).stream()
            .filter(line -> line.contains("exec \"$java_bin\"")).toList();

        assertThat(Files.readString(ROOT.resolve("hotpath"))).contains("jvm_options=\"@$root/jvm.options\"");
        assertThat(execs).hasSize(2).allSatisfy(line -> assertThat(line).contains("\"$jvm_options\""));
    }

    @Test
    void noBenchScriptWritesTheFlagsOfItsOwn() throws Exception {
        List<Path> scripts;
        try (Stream<Path> files = Files.walk(ROOT.resolve("bench"))) {
            scripts = files.filter(p -> p.toString().endsWith(".sh")).toList();
        }
        assertThat(scripts).hasSizeGreaterThan(10);
        for (Path script : scripts) {
            assertThat(Files.readString(script)).as(ROOT.relativize(script).toString())
                .doesNotContain("CompileCommand=", "--enable-native-access", "--sun-misc-unsafe-memory-access");
        }
        for (String engineScript : List.of("bench/engines/s1-vs-peer-wrk.sh", "bench/engine-vs-netty.sh",
            "bench/compare-revisions.sh")) {
            assertThat(Files.readString(ROOT.resolve(engineScript))).as(engineScript).contains("@jvm.options");
        }
    }

    @Test
    void theJvmAcceptsTheFile(@TempDir Path dir) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        Path output = dir.resolve("java-version.txt");
        Process process = new ProcessBuilder(java, "@" + FILE, "-version").redirectErrorStream(true)
            .redirectOutput(output.toFile()).start();

        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("java -version within a minute").isTrue();
        assertThat(process.exitValue()).as(Files.readString(output)).isZero();
    }
}
