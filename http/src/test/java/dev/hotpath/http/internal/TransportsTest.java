package dev.hotpath.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class TransportsTest {
    private static final long UNLIMITED = Long.MAX_VALUE;

    @Test
    void givesTheRingOneCompletionPerDescriptorTheProcessMayOpenRoundedUpToAPowerOfTwo() {
        assertThat(Transports.completionQueueEntries(20_000)).isEqualTo(32_768);
        assertThat(Transports.completionQueueEntries(4_097)).isEqualTo(8_192);
        assertThat(Transports.completionQueueEntries(8_192)).isEqualTo(8_192);
        assertThat(Transports.completionQueueEntries(8_193)).isEqualTo(16_384);
        assertThat(Transports.completionQueueEntries(65_535)).isEqualTo(65_536);
    }

    @Test
    void neverGoesBelowNettysDefaultNorAboveTheKernelsLargestRing() {
        assertThat(Transports.completionQueueEntries(1)).isEqualTo(4_096);
        assertThat(Transports.completionQueueEntries(1_024)).isEqualTo(4_096);
        assertThat(Transports.completionQueueEntries(4_096)).isEqualTo(4_096);
        assertThat(Transports.completionQueueEntries(65_536)).isEqualTo(65_536);
        assertThat(Transports.completionQueueEntries(1_048_576)).isEqualTo(65_536);
        assertThat(Transports.completionQueueEntries(UNLIMITED)).isEqualTo(65_536);
    }

    @Test
    void readsTheSoftOpenFileLimitFromTheProcessLimits() {
        List<String> limits = List.of(
            "Limit                     Soft Limit           Hard Limit           Units     ",
            "Max cpu time              unlimited            unlimited            seconds   ",
            "Max open files            20000                20000                files     ",
            "Max locked memory         8388608              8388608              bytes     ");
        assertThat(Transports.openFileLimit(limits)).isEqualTo(20_000);
        assertThat(Transports.openFileLimit(List.of("Max open files            1024                 524288               files"))).isEqualTo(1_024);
    }

    @Test
    void takesAnUnlimitedOrMissingOpenFileLimitAsNoCap() {
        assertThat(Transports.openFileLimit(List.of("Max open files            unlimited            unlimited            files"))).isEqualTo(UNLIMITED);
        assertThat(Transports.openFileLimit(List.of("Max cpu time              unlimited            unlimited            seconds"))).isEqualTo(UNLIMITED);
    }

    /** A child inherits this process's limits, and the shell reads them with getrlimit: the two must agree. */
    @Test
    void readsThisProcessLimitAsTheShellOfAChildSeesIt() throws IOException, InterruptedException {
        Process shell = new ProcessBuilder("sh", "-c", "ulimit -n").redirectErrorStream(true).start();
        String seen = new String(shell.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
        assertThat(shell.waitFor()).isZero();
        assertThat(Transports.openFileLimit()).isEqualTo(seen.equals("unlimited") ? UNLIMITED : Long.parseLong(seen));
    }
}
