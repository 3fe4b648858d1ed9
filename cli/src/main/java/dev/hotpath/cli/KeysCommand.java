package dev.hotpath.cli;

import dev.hotpath.apps.shortener.ApiKeys;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code hotpath keys create|list|revoke [ID] --data DIR}: the shortener's API keys; a running server sees changes within a second. */
@Command(name = "keys", mixinStandardHelpOptions = true, description = "Create, list or revoke the shortener's API keys.")
final class KeysCommand implements Callable<Integer> {
    enum Action { CREATE, LIST, REVOKE }

    @Spec
    private CommandSpec spec;

    @Parameters(index = "0", description = "create, list or revoke.")
    private Action action;

    @Parameters(index = "1", arity = "0..1", description = "The key id (revoke).")
    private String id;

    @Option(names = "--data", defaultValue = "./data", description = "Data directory (default: ${DEFAULT-VALUE}).")
    private Path data;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Clock clock = Clock.systemUTC();
        switch (action) {
            case CREATE -> {
                ApiKeys.Created created = ApiKeys.create(data, clock);
                out.println("id " + created.id());
                out.println("key " + created.secret());
                out.println("(shown once; only its SHA-256 hash is stored)");
            }
            case LIST -> {
                for (ApiKeys.KeyInfo key : ApiKeys.list(data)) {
                    out.println(key.id() + " created " + key.createdAt()
                        + (key.active() ? " active" : " revoked " + key.revokedAt()));
                }
            }
            case REVOKE -> {
                if (id == null) {
                    throw new picocli.CommandLine.ParameterException(spec.commandLine(), "revoke needs the key id");
                }
                if (!ApiKeys.revoke(data, id, clock)) {
                    spec.commandLine().getErr().println("hotpath: no active key " + id + " in " + data);
                    return 1;
                }
                out.println("revoked " + id);
            }
        }
        return 0;
    }
}
