package dev.hotpath.cli;

import java.io.PrintWriter;
import picocli.CommandLine;

/** The {@code hotpath} entry point: parses the command line and exits with the command's status. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tFT%1$tT.%1$tLZ %4$s %3$s: %5$s%6$s%n");
        // Netty's default leak detection records a stack trace for one buffer in 128, on the event loop:
        // 2-2.5% of a server's samples at 16-deep /ping (docs/BENCHMARKS.md). The test suite runs every
        // test JVM at "paranoid" and fails a leak, so a served process runs without it unless told.
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            System.setProperty("io.netty.leakDetection.level", "disabled");
        }
        // Netty's buffer allocator registers its Flight Recorder events when it makes its first chunk, and
        // that first registration builds the recorder's whole type metadata: 4.3 MB of short-lived heap
        // on the event loop, resident from then on in a server that allocates almost nothing else
        // (docs/BENCHMARKS.md). Off unless asked for, as with the leak detector above.
        if (System.getProperty("io.netty.jfr.enabled") == null) {
            System.setProperty("io.netty.jfr.enabled", "false");
        }
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs one command: 0 on success, 1 when it failed, 2 for an invalid command line. */
    static int run(String[] args, PrintWriter out, PrintWriter err) {
        String[] named = ServeCommand.withDefaultApp(args);
        CommandLine commandLine = CommandTree.build(HotpathCommand.class, named)
            .setCaseInsensitiveEnumValuesAllowed(true)
            .setOut(out)
            .setErr(err)
            .setParameterExceptionHandler((e, a) -> {
                err.println("hotpath: " + e.getMessage() + " (see hotpath " + commandPath(e.getCommandLine()) + "--help)");
                return CommandLine.ExitCode.USAGE;
            })
            .setExecutionExceptionHandler((e, cl, parsed) -> {
                err.println("hotpath: " + e.getMessage());
                return CommandLine.ExitCode.SOFTWARE;
            });
        return commandLine.execute(named);
    }

    private static String commandPath(CommandLine commandLine) {
        String name = commandLine.getCommandSpec().qualifiedName(" ");
        return name.equals("hotpath") ? "" : name.substring("hotpath ".length()) + " ";
    }
}
