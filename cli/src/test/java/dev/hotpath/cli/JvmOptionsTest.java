package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The servers' JVM flags have one source, the repository's {@code jvm.options}: the launcher and the
 * engine scripts pass the file itself ({@code java @jvm.options}), the suite the copy in its jar.
 */
class JvmOptionsTest {
    private static final Path FILE = StandaloneRepositoryTest.ROOT.resolve("jvm.options");

    @Test
    void theSuiteStartsServersWithTheFlagsOfTheRepositorysFile() throws Exception {
        List<String> flags = ServerUnderTest.parseJvmOptions(Files.readString(FILE));

        assertThat(flags).contains("--enable-native-access=ALL-UNNAMED",
            "-XX:CompileCommand=dontinline,io.netty.channel.uring.AbstractIoUringChannel::nextOpsId");
        assertThat(ServerUnderTest.JVM_OPTIONS).as("the copy the build put in the jar").isEqualTo(flags);
        assertThat(ServerUnderTest.pinnedJava()).endsWith(" " + String.join(" ", flags));
    }

    @Test
    void aFlagPerLineWithCommentsAndBlankLinesSkipped() {
        assertThat(ServerUnderTest.parseJvmOptions("# why\n\n  -Xss1m  \n#-Xmx1g\n-Dx=y\n"))
            .containsExactly("-Xss1m", "-Dx=y");
    }

    @Test
    void theLauncherAndTheEngineScriptsPassTheFileRatherThanFlagsOfTheirOwn() throws Exception {
        Map<String, String> reference = Map.of("hotpath", "\"@$root/jvm.options\"",
            "bench/engines/s1-vs-peer-wrk.sh", "(@jvm.options ", "bench/engine-vs-netty.sh", "(@jvm.options ");
        for (Map.Entry<String, String> script : reference.entrySet()) {
            String text = Files.readString(StandaloneRepositoryTest.ROOT.resolve(script.getKey()));
            assertThat(text).as(script.getKey()).contains(script.getValue())
                .doesNotContain("CompileCommand=", "--enable-native-access", "--sun-misc-unsafe-memory-access");
        }
    }

    @Test
    void theJvmAcceptsTheFile() throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process process = new ProcessBuilder(java, "@" + FILE, "-version").redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());

        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
    }
}
