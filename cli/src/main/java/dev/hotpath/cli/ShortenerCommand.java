package dev.hotpath.cli;

import dev.hotpath.apps.shortener.ClusterShortenerApp;
import dev.hotpath.store.PostgresConfig;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code hotpath shortener migrate|import}: the scale-out shortener's database tasks (docs/SCALE-OUT.md). */
@Command(name = "shortener", mixinStandardHelpOptions = true, description = "The scale-out shortener's database.")
@CommandTree.Subcommands({ShortenerCommand.Migrate.class, ShortenerCommand.Import.class})
final class ShortenerCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** {@code hotpath shortener migrate --store postgres://... [--codes scrambled|sequential]}. */
    @Command(name = "migrate", mixinStandardHelpOptions = true,
        description = "Apply the schema migrations and create the code secret, then exit.")
    static final class Migrate implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Option(names = "--store", required = true, description = "postgres://USER[:PASS]@HOST[:PORT]/DB.")
        private String store;

        @Option(names = "--codes", defaultValue = "scrambled",
            description = "The code scheme of a new database: scrambled or sequential (default: ${DEFAULT-VALUE}).")
        private String codes;

        @Override
        public Integer call() {
            if (!codes.equals("scrambled") && !codes.equals("sequential")) {
                throw new ParameterException(spec.commandLine(), "--codes must be scrambled or sequential, was " + codes);
            }
            PostgresConfig config;
            try {
                config = PostgresConfig.parse(store, System::getenv);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            ClusterShortenerApp.migrate(config, codes);
            spec.commandLine().getOut().println("hotpath: " + config.database() + " on " + config.host() + ":"
                + config.port() + " is migrated (--codes " + codes + ")");
            return 0;
        }
    }

    /** {@code hotpath shortener import --data DIR --store postgres://...}. */
    @Command(name = "import", mixinStandardHelpOptions = true,
        description = "Move an embedded store (stopped) into an empty scale-out database, keeping every code.")
    static final class Import implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Option(names = "--data", required = true, description = "The embedded data directory; no server may run on it.")
        private Path data;

        @Option(names = "--store", required = true, description = "postgres://USER[:PASS]@HOST[:PORT]/DB.")
        private String store;

        @Override
        public Integer call() {
            PostgresConfig config;
            try {
                config = PostgresConfig.parse(store, System::getenv);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            ClusterShortenerApp.Imported imported = ClusterShortenerApp.importEmbedded(data, config);
            spec.commandLine().getOut().println("hotpath: imported " + imported.links() + " links and "
                + imported.keys() + " API keys from " + data + " into " + config.database());
            return 0;
        }
    }
}
