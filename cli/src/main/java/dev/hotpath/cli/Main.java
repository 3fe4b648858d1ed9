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

    /**
     * Runs one command: 0 on success, 1 when it failed, 2 for an invalid command line. A server's command
     * line is read without picocli where {@link ServeFlags} can read it.
     */
    static int run(String[] args, PrintWriter out, PrintWriter err) {
        String[] named = ServeCommand.withDefaultApp(args);
        ServeFlags.Reading serve = ServeFlags.read(named);
        if (serve != null) {
            return serve(serve, out, err);
        }
        CommandLine commandLine = CommandTree.build(HotpathCommand.class, named)
            .setCaseInsensitiveEnumValuesAllowed(true)
            .setOut(out)
            .setErr(err)
            .setParameterExceptionHandler((e, a) -> refused(err, e.getMessage(), commandPath(e.getCommandLine())))
            .setExecutionExceptionHandler((e, cl, parsed) -> e instanceof InvalidFlags
                ? refused(err, e.getMessage(), commandPath(cl)) : failed(err, e));
        return commandLine.execute(named);
    }

    /** Runs the server {@link ServeFlags} read, answering as picocli's handlers above answer. */
    private static int serve(ServeFlags.Reading serve, PrintWriter out, PrintWriter err) {
        try {
            return serve.command().serve(new AppCommand.Invocation(serve.app(), out, err, serve.given()::contains));
        } catch (InvalidFlags e) {
            return refused(err, e.getMessage(), "serve " + serve.app() + " ");
        } catch (Exception e) {
            return failed(err, e);
        }
    }

    /** An invalid command line: one line that says why and where the help is, status 2. */
    private static int refused(PrintWriter err, String why, String commandPath) {
        err.println("hotpath: " + why + " (see hotpath " + commandPath + "--help)");
        return 2;
    }

    /** A command that failed: its reason on one line, status 1. */
    private static int failed(PrintWriter err, Exception e) {
        err.println("hotpath: " + e.getMessage());
        return 1;
    }

    private static String commandPath(CommandLine commandLine) {
        String name = commandLine.getCommandSpec().qualifiedName(" ");
        return name.equals("hotpath") ? "" : name.substring("hotpath ".length()) + " ";
    }
}
