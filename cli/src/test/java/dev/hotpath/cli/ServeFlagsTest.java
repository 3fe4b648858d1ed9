package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hotpath.apps.App;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.lang.reflect.Field;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

class ServeFlagsTest {
    @Test
    void readsEveryAppWithItsDefaults() {
        for (Class<?> app : ServeCommand.class.getAnnotation(CommandTree.Subcommands.class).value()) {
            String name = app.getAnnotation(Command.class).name();
            ServeFlags.Reading reading = ServeFlags.read(new String[] {"serve", name});
            assertThat(reading).as(name).isNotNull();
            assertThat(reading.command()).isExactlyInstanceOf(app);
            assertThat(reading.app()).isEqualTo(name);
            assertThat(reading.given()).isEmpty();
            assertSameFlags(reading.command(), picocli(app, List.of()).command(), name);
        }
    }

    /** Every type of flag serve has, in both forms, against what picocli makes of the same line. */
    @ParameterizedTest
    @ValueSource(strings = {
        "users --store sqlite --data d --token t --access-log=- --bind 127.0.0.1:0 --transport nio --event-loops 2",
        "users --transport=IO_URING --max-body 0 --max-request-line 100 --request-timeout 250ms --idle-timeout=2m"
            + " --max-connections 7 --max-pending-responses 8 --max-in-flight 9 --max-header-bytes 10"
            + " --max-header-fields 11",
        "shortener --data d --public-base https://sho.rt --codes sequential --durability NORMAL --max-links 5"
            + " --max-batch 1 --redirect-status 308 --deny-hosts h.txt --metrics-token m --ui off",
        "shortener --store postgres://u@h/db --cache redis://h --role read --local-cache-size 0"
            + " --local-cache-ttl 5s --visit-fold-interval 1h --store-timeout 3s --cache-timeout 20ms --pool-size 3"
            + " --key-file k",
        "social --sqlite-path s.db --jwt-secret x --durability full --bind [::1]:3000",
        "messages --store postgres://u@h/db --max-batch 64 --stream redis://h:1/2 --worker off --durability=normal",
        "messages --data=d --event-loops 1",
        "users --access-log - --token=-",
    })
    void readsWhatPicocliReads(String line) {
        List<String> words = List.of(line.split(" "));
        List<String> args = new ArrayList<>(List.of("serve"));
        args.addAll(words);
        ServeFlags.Reading reading = ServeFlags.read(args.toArray(String[]::new));
        assertThat(reading).isNotNull();

        Picocli parsed = picocli(reading.command().getClass(), words.subList(1, words.size()));
        assertSameFlags(reading.command(), parsed.command(), line);
        for (CommandLine.Model.OptionSpec option : parsed.result().commandSpec().options()) {
            for (String name : option.names()) {
                assertThat(reading.given().contains(name)).as(name).isEqualTo(parsed.result().hasMatchedOption(name));
            }
        }
    }

    /** Lines it does not read are picocli's to read or refuse with its own message, as before. */
    @ParameterizedTest
    @ValueSource(strings = {
        "serve users --help", "serve users -h", "serve users --version", "serve --help", "serve", "serve users --",
        "serve pigeon", "bench engines", "serve users --bogus 1", "serve users --store", "serve users --data=",
        "serve users --data a --data b", "serve users --event-loops x", "serve users --event-loops 010",
        "serve users --event-loops 99999999999", "serve users --max-body -1", "serve users --bind nope",
        "serve users --transport carrier-pigeon", "serve users --request-timeout 5", "serve users --token -t",
        "serve shortener --durability maybe",
    })
    void leavesToPicocliWhatItDoesNotRead(String line) {
        assertThat(ServeFlags.read(line.split(" "))).isNull();
    }

    @Test
    void refusesADeclarationItCannotRead() {
        assertThatThrownBy(() -> ServeFlags.read(WithASwitch.class, new String[] {}, 0))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("quiet");
    }

    /** An app with a flag that takes no value, which {@link ServeFlags} does not read; never opened. */
    @Command(name = "switch")
    static final class WithASwitch extends AppCommand {
        @Option(names = "--quiet")
        private boolean quiet;

        @Override
        App open(InetSocketAddress bind, PrometheusRegistry metrics, Invocation invocation) {
            throw new UnsupportedOperationException("only read");
        }
    }

    private record Picocli(Object command, ParseResult result) {
    }

    private static Picocli picocli(Class<?> app, List<String> flags) {
        CommandLine commandLine = new CommandLine(app).setCaseInsensitiveEnumValuesAllowed(true);
        ParseResult result = commandLine.parseArgs(flags.toArray(String[]::new));
        return new Picocli(commandLine.getCommand(), result);
    }

    /** Every {@code @Option} field of the two, mixins included, holds an equal value. */
    private static void assertSameFlags(Object read, Object parsed, String line) {
        for (Class<?> type = read.getClass(); type != Object.class; type = type.getSuperclass()) {
            for (Field field : type.getDeclaredFields()) {
                field.setAccessible(true);
                Object mine = value(field, read);
                Object theirs = value(field, parsed);
                if (field.isAnnotationPresent(Option.class)) {
                    assertThat(mine).as("%s in '%s'", field.getName(), line).isEqualTo(theirs);
                } else if (field.isAnnotationPresent(Mixin.class)) {
                    assertSameFlags(mine, theirs, line);
                }
            }
        }
    }

    private static Object value(Field field, Object holder) {
        try {
            return field.get(holder);
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }
}
