package dev.hotpath.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A process's memory as Linux's {@code /proc/<pid>/status} tells it. */
final class ProcStatus {
    private ProcStatus() {
    }

    /** The resident set now ({@code VmRSS}), in bytes; -1 where the platform does not tell or the process is gone. */
    static long rssBytes(long pid) {
        return bytes(pid, "VmRSS:");
    }

    /** The peak resident set so far ({@code VmHWM}), in bytes; -1 as for {@link #rssBytes(long)}. */
    static long peakRssBytes(long pid) {
        return bytes(pid, "VmHWM:");
    }

    private static long bytes(long pid, String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith(field)) {
                    return Long.parseLong(line.substring(field.length()).strip().split("\\s+")[0]) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or the process has exited
        }
        return -1;
    }
}
