package dev.hotpath.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TransportsTest {
    private static final long UNLIMITED = Long.MAX_VALUE;

    @ParameterizedTest(name = "open-file limit {0}: {1} entries")
    @CsvSource({"20000, 32768", "4097, 8192", "8192, 8192", "8193, 16384", "65535, 65536"})
    void givesTheRingOneCompletionPerDescriptorTheProcessMayOpenRoundedUpToAPowerOfTwo(long limit, int entries) {
        assertThat(Transports.completionQueueEntries(limit)).isEqualTo(entries);
    }

    @ParameterizedTest(name = "open-file limit {0}: {1} entries")
    @CsvSource({"1, 4096", "1024, 4096", "4096, 4096", "65536, 65536", "1048576, 65536", UNLIMITED + ", 65536"})
    void neverGoesBelowNettysDefaultNorAboveTheKernelsLargestRing(long limit, int entries) {
        assertThat(Transports.completionQueueEntries(limit)).isEqualTo(entries);
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
