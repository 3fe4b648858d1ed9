package dev.hotpath.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code hotpath serve [APP] [flags]}: the table of servable apps, one {@link AppCommand} each with its
 * own flags. The shortener is the default: {@code hotpath serve --data d} is
 * {@code hotpath serve shortener --data d}.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = "Serve an app over HTTP/1.1 until SIGTERM or SIGINT (default: shortener). "
        + "'hotpath serve APP --help' lists the app's flags.")
@CommandTree.Subcommands({ServeShortener.class, ServeSocial.class, ServeUsers.class, ServeMessages.class})
final class ServeCommand implements Runnable {
    /** The app {@code serve} runs when none is named. */
    static final String DEFAULT_APP = "shortener";
    private static final Set<String> OWN_OPTIONS = Set.of("-h", "--help", "-V", "--version");

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /**
     * {@code args} with the default app named where {@code serve} is followed by nothing or by a flag
     * of the app's (not by an app's name, nor by serve's own help and version flags).
     */
    static String[] withDefaultApp(String[] args) {
        if (args.length == 0 || !args[0].equals("serve")
            || (args.length > 1 && (!args[1].startsWith("-") || OWN_OPTIONS.contains(args[1])))) {
            return args;
        }
        List<String> named = new ArrayList<>(List.of(args));
        named.add(1, DEFAULT_APP);
        return named.toArray(String[]::new);
    }
}
