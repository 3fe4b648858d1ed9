package dev.hotpath.cli;

import dev.hotpath.apps.messages.MessagesConfig;
import dev.hotpath.apps.messages.MessagesWorker;
import dev.hotpath.apps.messages.StreamConfig;
import dev.hotpath.store.Durability;
import dev.hotpath.store.RedisConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code hotpath messages worker}: the messages stream's worker as a process of its own (docs/MESSAGES.md). */
@Command(name = "messages", mixinStandardHelpOptions = true, description = "The messages service's stream worker.",
    subcommands = {MessagesCommand.Worker.class})
final class MessagesCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** {@code hotpath messages worker --stream redis://... --data DIR}. */
    @Command(name = "worker", mixinStandardHelpOptions = true,
        description = "Store the stream's messages into DIR's messages.db, beside `hotpath serve messages --worker off`"
            + " on the same DIR; runs until SIGTERM or SIGINT.")
    static final class Worker implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Option(names = "--stream", required = true, description = "The stream's Redis, redis://HOST[:PORT][/DB].")
        private String stream;

        @Option(names = "--data", defaultValue = "./data-messages", description = "Data directory (default: ${DEFAULT-VALUE}).")
        private Path data;

        @Option(names = "--durability", defaultValue = "full", converter = Converters.DurabilityMode.class,
            description = "full (fsync per commit) or normal (survives kill -9, not power loss) (default: ${DEFAULT-VALUE}).")
        private Durability durability;

        @Option(names = "--claim-idle", defaultValue = "30s", converter = Converters.Span.class,
            description = "Take over another worker's entry once it has been pending this long (default: ${DEFAULT-VALUE}).")
        private Duration claimIdle;

        @Override
        public Integer call() throws InterruptedException {
            MessagesConfig config;
            try {
                config = new MessagesConfig(data, durability, MessagesConfig.MAX_BATCH, Clock.systemUTC())
                    .withStream(StreamConfig.of(RedisConfig.parse(stream), true));
                config = config.withStream(config.stream().withTimes(claimIdle, config.stream().recoveryInterval(),
                    config.stream().trimInterval()));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            PrintWriter out = spec.commandLine().getOut();
            CountDownLatch stop = new CountDownLatch(1);
            try (MessagesWorker worker = MessagesWorker.open(config)) {
                Signals.onTermination(stop::countDown);
                out.println("hotpath messages worker " + worker.consumer() + ": storing " + stream + " into "
                    + data.resolve("messages.db"));
                out.flush();
                stop.await();
                out.println("hotpath: stopping");
                out.flush();
            }
            out.println("hotpath: stopped");
            out.flush();
            return 0;
        }
    }
}
