package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/** The harness starts its servers with the JIT flags the launcher gives every JVM, so both must name the same. */
class JitFlagsTest {
    @Test
    void theLauncherPassesEveryFlagTheHarnessGivesItsServers() throws Exception {
        String launcher = Files.readString(StandaloneRepositoryTest.ROOT.resolve("hotpath"));
        for (String flag : ServerUnderTest.JIT_FLAGS.split(" ")) {
            assertThat(launcher).as("the ./hotpath launcher's jit_flags").contains(flag);
        }
        assertThat(ServerUnderTest.pinnedJava()).endsWith(ServerUnderTest.JIT_FLAGS);
    }
}
