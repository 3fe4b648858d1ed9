package dev.hotpath.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class MainTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test
    void helpListsTheCommands() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString()).contains("serve").contains("help");
    }

    @Test
    void runWithoutCommandPrintsUsage() {
        assertThat(run()).isZero();
        assertThat(out.toString()).startsWith("Usage: hotpath");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "serve --bogus                   | Unknown option: '--bogus'",
        "serve shortcake                 | Invalid value for positional parameter",
        "serve --bind nope               | expected host:port, got 'nope'",
        "serve --bind 127.0.0.1:70000    | port out of range",
        "serve --transport carrier-pigeon| Invalid value for option '--transport'",
        "serve --request-timeout 5 | expected a duration such as 250ms, 5s or 2m",
        "serve --idle-timeout 0s   | duration must be positive",
        "serve --max-body -1       | maxBodyBytes must be >= 0",
        "serve --max-connections 0 | maxConnections must be positive",
        "serve --event-loops 0     | --event-loops must be at least 1",
        "serve --codes weird       | --codes must be scrambled or sequential",
        "serve --durability maybe  | --durability must be full, normal or none",
        "serve --redirect-status 303 | --redirect-status must be 301, 302, 307 or 308",
        "serve --max-batch 0       | --max-batch must be at least 1",
        "serve --max-links 0       | --max-links must be between 1 and 2^30",
        "serve --public-base ftp://x | --public-base must start with http:// or https://",
        "keys revoke --data /nonexistent | revoke needs the key id",
        "keys rotate               | Invalid value for positional parameter",
    })
    void refusesAnInvalidCommandLineWithOneLineAndStatusTwo(String args, String reason) {
        assertThat(run(args.trim().split("\\s+"))).isEqualTo(2);
        assertThat(err.toString()).contains(reason).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(err.toString().strip().lines()).hasSize(1);
    }
}
