package dev.hotpath.cli;

import dev.hotpath.apps.social.SocialSeed;
import dev.hotpath.apps.social.Tokens;
import dev.hotpath.store.SqliteDatabase;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code hotpath social seed|tokens}: the social challenge's data and tokens. */
@Command(name = "social", mixinStandardHelpOptions = true, description = "Seed data and tokens for the social feed API.")
@CommandTree.Subcommands({SocialCommand.Seed.class, SocialCommand.Mint.class})
final class SocialCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** {@code hotpath social seed --out FILE}. */
    @Command(name = "seed", mixinStandardHelpOptions = true,
        description = "Write a new SQLite database of the challenge's schema and shape (deterministic per --seed).")
    static final class Seed implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Option(names = "--out", required = true, description = "The database file to create (must not exist).")
        private Path out;

        @Option(names = "--users", defaultValue = "50000", description = "Users (default: ${DEFAULT-VALUE}).")
        private int users;

        @Option(names = "--posts", defaultValue = "500000", description = "Posts (default: ${DEFAULT-VALUE}).")
        private int posts;

        @Option(names = "--seed", defaultValue = "1", description = "Random seed (default: ${DEFAULT-VALUE}).")
        private long seed;

        @Override
        public Integer call() throws Exception {
            SocialSeed.Size size;
            try {
                size = new SocialSeed.Size(users, posts);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            if (Files.exists(out)) {
                throw new ParameterException(spec.commandLine(), out + " exists; seed writes a new file only");
            }
            long started = System.nanoTime();
            SocialSeed.Summary summary = SocialSeed.generate(out, size, seed);
            spec.commandLine().getOut().printf(Locale.ROOT, "%s: %,d users, %,d posts, %,d likes in %.1f s%n", out, summary.users(),
                summary.posts(), summary.likes(), (System.nanoTime() - started) / 1e9);
            return 0;
        }
    }

    /** {@code hotpath social tokens --db FILE --users A..B}. */
    @Command(name = "tokens", mixinStandardHelpOptions = true,
        description = "Print one HS256 token per user, for users A..B of a seeded database (their usernames from it).")
    static final class Mint implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Option(names = "--db", required = true, description = "The seeded database.")
        private Path db;

        @Option(names = "--users", defaultValue = "1..20000", description = "Range of user ids, A..B (default: ${DEFAULT-VALUE}).")
        private String users;

        @Option(names = "--secret", description = "HMAC secret (default: $JWT_SECRET).")
        private String secret;

        @Option(names = "--ttl", defaultValue = "24h", converter = Converters.Span.class,
            description = "Validity, such as 30m or 24h (default: ${DEFAULT-VALUE}).")
        private Duration ttl;

        @Override
        public Integer call() throws Exception {
            String key = secret != null ? secret : System.getenv("JWT_SECRET");
            if (key == null || key.isEmpty()) {
                throw new ParameterException(spec.commandLine(), "tokens need --secret or JWT_SECRET");
            }
            String[] range = users.split("\\.\\.");
            long first;
            long last;
            try {
                first = Long.parseLong(range[0]);
                last = range.length == 2 ? Long.parseLong(range[1]) : -1;
            } catch (NumberFormatException e) {
                first = last = -1;
            }
            if (range.length != 2 || first < 1 || last < first) {
                throw new ParameterException(spec.commandLine(), "--users must be A..B with 1 <= A <= B, got " + users);
            }
            if (!Files.isReadable(db)) {
                throw new ParameterException(spec.commandLine(), "--db " + db + " cannot be read");
            }
            Tokens tokens = new Tokens(key.getBytes(StandardCharsets.UTF_8));
            long now = Instant.now().getEpochSecond();
            PrintWriter out = spec.commandLine().getOut();
            long written = 0;
            try (Connection c = SqliteDatabase.openForReading(db);
                 PreparedStatement s = c.prepareStatement("SELECT id, username FROM users WHERE id BETWEEN ? AND ? ORDER BY id")) {
                s.setLong(1, first);
                s.setLong(2, last);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next()) {
                        out.println(tokens.mint(rs.getLong(1), rs.getString(2), now, now + ttl.toSeconds()));
                        written++;
                    }
                }
            }
            if (written != last - first + 1) {
                spec.commandLine().getErr().println("hotpath: " + db + " has " + written + " of users " + users);
                return 1;
            }
            return 0;
        }
    }
}
