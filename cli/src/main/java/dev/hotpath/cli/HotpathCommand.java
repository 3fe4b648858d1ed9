package dev.hotpath.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code hotpath}: lists the commands when run alone. */
@Command(name = "hotpath", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = "Small, durable web APIs at the speed of the machine.")
@CommandTree.Subcommands({ServeCommand.class, KeysCommand.class, ShortenerCommand.class, BenchCommand.class, SocialCommand.class, MessagesCommand.class,
        picocli.CommandLine.HelpCommand.class})
final class HotpathCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
