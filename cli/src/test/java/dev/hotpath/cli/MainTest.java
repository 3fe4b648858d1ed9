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

    @Test
    void serveWithoutAnAppNamesTheShortener() {
        assertThat(ServeCommand.withDefaultApp(new String[] {"serve"})).containsExactly("serve", "shortener");
        assertThat(ServeCommand.withDefaultApp(new String[] {"serve", "--data", "d"}))
            .containsExactly("serve", "shortener", "--data", "d");
        assertThat(ServeCommand.withDefaultApp(new String[] {"serve", "social", "--bind", "x"}))
            .containsExactly("serve", "social", "--bind", "x");
        assertThat(ServeCommand.withDefaultApp(new String[] {"serve", "--help"})).containsExactly("serve", "--help");
        assertThat(ServeCommand.withDefaultApp(new String[] {"keys", "--data", "d"})).containsExactly("keys", "--data", "d");
    }

    @Test
    void serveHelpListsEveryApp() {
        assertThat(run("serve", "--help")).isZero();
        assertThat(out.toString()).contains("shortener").contains("social").contains("users").contains("messages");
    }

    @Test
    void eachAppsHelpListsItsOwnFlagsAndTheEngines() {
        assertThat(run("serve", "social", "--help")).isZero();
        assertThat(out.toString()).contains("--sqlite-path").contains("--bind").contains("--max-body")
            .doesNotContain("--codes");
    }

    @Test
    void refusesAPublicBaseTooLongForAQrCodeOfItsLinks() {
        assertThat(run("serve", "shortener", "--public-base", "https://sho.rt/" + "x".repeat(1000))).isEqualTo(2);
        assertThat(err.toString()).contains("--public-base must be at most 1000 characters");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "serve --bogus                   | Unknown option: '--bogus'",
        "serve shortcake                 | Unmatched argument at index 1: 'shortcake'",
        "serve users --codes x           | Unknown options: '--codes'",
        "serve users --store disk        | --store must be memory or sqlite, not disk",
        "serve users --store sqlite      | --store sqlite needs --data DIR",
        "serve messages --durability none | --durability must be full or normal",
        "serve messages --max-batch 0    | --max-batch must be at least 1, was 0",
        "serve messages --stream x       | The Redis URI must start with redis://",
        "serve messages --worker off     | --worker needs --stream",
        "serve messages --stream redis://127.0.0.1:9 --worker maybe | --worker must be on or off, was 'maybe'",
        "messages worker                 | Missing required option: '--stream=<stream>'",
        "messages worker --stream http://x | The Redis URI must start with redis://",
        "messages worker --stream redis://x --durability none | --durability must be full or normal",
        "serve social --codes sequential --jwt-secret s | Unknown options: '--codes'",
        "serve social --durability none --sqlite-path x --jwt-secret s | --durability must be full or normal",
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
        "serve --metrics-token a,b | --metrics-token must be a bearer token",
        "keys revoke --data /nonexistent | revoke needs the key id",
        "keys rotate               | Invalid value for positional parameter",
        "bench                     | Missing required parameter: SCENARIO",
        "serve social --jwt-secret s | serve social needs SQLITE_PATH or --sqlite-path",
        "serve social --sqlite-path /nonexistent.db --jwt-secret s | SQLITE_PATH /nonexistent.db does not exist",
        "social seed               | Missing required option: '--out=<out>'",
        "social tokens --db x.db --secret s --ttl 0h | duration must be positive",
        "social tokens --db x.db --secret s --ttl soon | expected a duration such as 250ms, 5s or 2m",
        "social seed --out x.db --users 0 | --users must be at least 1",
        "social tokens --db x.db --secret s --users 5..2 | --users must be A..B with 1 <= A <= B",
        "social tokens --db /nonexistent.db --secret s --users 1..2 | --db /nonexistent.db cannot be read",
        "bench ping                | Missing required option: --target",
        "bench compare ping --a x --b {port} | a server command must contain {port}: x",
        "bench compare ping --a {port} --b {port} --rounds 0 | --rounds must be 1..100",
        "bench compare tea --a {port} --b {port} | unknown scenario 'tea'",
        "bench compare --a {port} --b {port} | Missing required parameter: SCENARIO",
        "bench compare redirect --a {port} --b {port} --key k --b-path /x | --a-path and --b-path apply to ping and messages only",
        "bench compare messages --a {port} --b {port} --a-path /message --drain-deadline 5s | --drain-deadline applies to messages --path /message-fast only",
        "bench tea --target http://127.0.0.1:9 | unknown scenario 'tea' (ping, redirect, create, mixed, social, messages, users-get, users-mix)",
        "bench engines --scenarios s1,s9 | unknown scenario 's9' (s1, s2, s3, s4, p64)",
        "bench engines --servers hotpath,tomcat | unknown server 'tomcat' (hotpath, netty, vertx, helidon, raw)",
        "bench engines --server hotpath=serve | --server takes NAME=CMD with NAME one of hotpath, netty, vertx, helidon, raw and {port} in CMD",
        "bench engines --server jetty=x{port} | --server takes NAME=CMD",
        "bench engines --scenarios s4 --peers-jar /nonexistent.jar | server vertx needs the peers jar /nonexistent.jar: build it",
        "bench engines --servers hotpath --rounds 0 | --rounds must be 1..100",
        "bench social --target http://127.0.0.1:9 --pipeline 2 | scenario social runs in --mode users, or --mode saturate with --pipeline 1",
        "bench social --target http://127.0.0.1:9 --mode rate --rps 5 | scenario social runs in --mode users, or --mode saturate",
        "bench social --target http://127.0.0.1:9 --mode users --users 5 | scenario social needs a readable --tokens-file",
        "bench mixed --target http://127.0.0.1:9 --key k --create-percent 60 --miss-percent 50 | must be 0..100 and add up to at most 100",
        "bench ping --target ftp://127.0.0.1:9 | --target must be http://HOST:PORT",
        "bench ping --target http://127.0.0.1  | --target must be http://HOST:PORT",
        "bench ping --target http://127.0.0.1:9 --mode rate | --mode rate needs --rps above 0",
        "bench ping --target http://127.0.0.1:9 --rps 100 | --rps applies to --mode rate only",
        "bench ping --target http://127.0.0.1:9 --mode users | --users and --mode users go together",
        "bench ping --target http://127.0.0.1:9 --users 10 | --users and --mode users go together",
        "bench ping --target http://127.0.0.1:9 --mode users --users 10 --think-min 9s --think-max 2s | --think must be MIN..MAX",
        "bench ping --target http://127.0.0.1:9 --mode sideways | Invalid value for option '--mode'",
        "bench ping --target http://127.0.0.1:9 --pipeline 0 | --pipeline must be 1..1024",
        "bench ping --target http://127.0.0.1:9 --connections 0 | --connections must be 1..1000000",
        "bench ping --target http://127.0.0.1:9 --duration 0s | duration must be positive",
        "bench ping --target http://127.0.0.1:9 --max-error-rate 1.5 | --max-error-rate must be in [0, 1)",
        "bench create --target http://127.0.0.1:9 | scenario create needs --key or --key-file",
        "bench mixed --target http://127.0.0.1:9 --key k --creates 5 | --creates applies to create in --mode saturate",
        "bench create --target http://127.0.0.1:9 --key k --mode rate --rps 5 --creates 5 | --creates applies to create in --mode saturate",
        "bench create --target http://127.0.0.1:9 --key k --creates 0 | --creates applies to create in --mode saturate and must be at least 1",
        "bench redirect --target http://127.0.0.1:9 --key k --links 0 | --links must be 1..10000000",
        "bench create --target http://127.0.0.1:9 --key-file /nonexistent | --key-file /nonexistent cannot be read",
        "bench messages --target http://127.0.0.1:9 --drain-deadline 5s | --drain-deadline applies to messages --path /message-fast only",
        "bench ping --target http://127.0.0.1:9 --path /message-fast --drain-deadline 5s | --drain-deadline applies to messages",
        "bench messages --target http://127.0.0.1:9 --path /message-fast --drain-deadline 0s | duration must be positive",
        "bench social --target http://127.0.0.1:9 --tokens-file pom.xml --score --duration 30s | --score sets users, connections and durations itself",
        "bench social --target http://127.0.0.1:9 --tokens-file pom.xml --score --connections 8 --mode saturate | drop --mode, --connections",
        "bench social --target http://127.0.0.1:9 --tokens-file pom.xml --score --users 10 --mode users | drop --mode, --users",
        "bench ping --target http://127.0.0.1:9 --score | --score applies to scenario social",
        "serve shortener --ui maybe | --ui must be on or off",
        "serve shortener --store postgres://u@127.0.0.1:9/db --data d | --data belongs to the embedded mode",
        "serve shortener --store postgres://u@127.0.0.1:9/db --max-links 5 --durability normal | --durability, --max-links belongs to the embedded mode",
        "serve shortener --cache redis://127.0.0.1:9 --role read | --cache, --role belongs to the scale-out mode: add --store",
        "serve shortener --store mysql://u@h/db | The PostgreSQL URI must start with postgres://",
        "serve shortener --store postgres://u:secret@h/db --role reader | --role must be all, read or write",
        "serve shortener --store postgres://u@h/db --cache redis://h/x | The Redis URI may end only in /DB",
        "shortener migrate --store postgres://u@h/db --codes odd | --codes must be scrambled or sequential",
        "shortener import --data d | Missing required option: '--store",
        "keys list --data d --store postgres://u@h/db | give --data or --store, not both",
    })
    void refusesAnInvalidCommandLineWithOneLineAndStatusTwo(String args, String reason) {
        assertThat(run(args.trim().split("\\s+"))).isEqualTo(2);
        assertThat(err.toString()).contains(reason).doesNotContain("Exception").doesNotContain("\tat ")
            .doesNotContain("secret");
        assertThat(err.toString().strip().lines()).hasSize(1);
    }
}
