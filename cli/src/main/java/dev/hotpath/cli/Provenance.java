package dev.hotpath.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Where a measurement was taken: the commit of the working directory and a line about the machine. */
final class Provenance {
    private Provenance() {
    }

    /** {@code git rev-parse HEAD} here, with "+dirty" when the tree has changes; "unknown" without git. */
    static String commit() {
        String head = git("rev-parse", "HEAD");
        if (head == null) {
            return "unknown";
        }
        String status = git("status", "--porcelain", "--untracked-files=no");
        return status == null || status.isEmpty() ? head : head + "+dirty";
    }

    static String machine() {
        String model = "unknown CPU";
        try {
            model = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                .map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst().orElse(model);
        } catch (IOException e) {
            // not Linux: keep the default
        }
        return System.getProperty("os.name") + " " + System.getProperty("os.version") + ", "
            + onlineCores() + " cores online (" + model + "), this process may use "
            + Runtime.getRuntime().availableProcessors() + ", " + Runtime.getRuntime().maxMemory() / (1024 * 1024)
            + " MiB max heap";
    }

    /**
     * The machine's online cores, from {@code /sys/devices/system/cpu/online} ("0-1,4"): unlike
     * {@code availableProcessors()} not narrowed by the CPU set this process was started with.
     */
    static int onlineCores() {
        try {
            int count = 0;
            for (String range : Files.readString(Path.of("/sys/devices/system/cpu/online")).strip().split(",")) {
                int dash = range.indexOf('-');
                count += dash < 0 ? 1 : Integer.parseInt(range.substring(dash + 1)) - Integer.parseInt(range.substring(0, dash)) + 1;
            }
            return count;
        } catch (IOException | RuntimeException e) {
            return Runtime.getRuntime().availableProcessors();
        }
    }

    private static String git(String... args) {
        try {
            String[] command = new String[args.length + 1];
            command[0] = "git";
            System.arraycopy(args, 0, command, 1, args.length);
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes()).strip();
            if (!process.waitFor(5, TimeUnit.SECONDS) || process.exitValue() != 0) {
                return null;
            }
            return output;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
