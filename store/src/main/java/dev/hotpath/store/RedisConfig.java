package dev.hotpath.store;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Objects;

/**
 * Where {@link RedisConnections} connect and how long a command may take. Start from {@link #parse},
 * which reads a {@code redis://HOST[:PORT][/DB]} URI and sets the default timeout.
 *
 * @param database the logical database, 0 to 15 on a default server. Default 0.
 * @param commandTimeout a command not answered within this fails with a timeout, so a hung server
 *     costs a request this long and no more; it also bounds connecting, but never below 1 s. Default 1 s.
 */
public record RedisConfig(String host, int port, int database, Duration commandTimeout) {
    public static final int DEFAULT_PORT = 6379;
    public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(1);
    private static final String FORM = "redis://HOST[:PORT][/DB]";

    public RedisConfig {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(commandTimeout, "commandTimeout");
        if (port < 1 || port > 65_535 || database < 0 || commandTimeout.isNegative() || commandTimeout.isZero()) {
            throw new IllegalArgumentException("port must be 1 to 65535, database not negative, commandTimeout"
                + " positive; were " + port + ", " + database + ", " + commandTimeout);
        }
    }

    /** @throws IllegalArgumentException with one sentence naming what is wrong */
    public static RedisConfig parse(String uri) {
        URI parsed;
        try {
            parsed = new URI(uri);
        } catch (URISyntaxException e) {
            throw invalid("is not a valid URI (" + e.getReason() + ")");
        }
        if (!"redis".equals(parsed.getScheme())) {
            throw invalid("must start with redis://");
        }
        if (parsed.getHost() == null) {
            throw invalid("names no host");
        }
        if (parsed.getRawUserInfo() != null) {
            throw invalid("takes no user or password");
        }
        if (parsed.getRawQuery() != null || parsed.getRawFragment() != null) {
            throw invalid("takes no ?parameters or #fragment");
        }
        String path = parsed.getRawPath();
        if (path != null && !path.isEmpty() && !path.matches("/\\d{1,5}")) {
            throw invalid("may end only in /DB, a database number");
        }
        int database = path == null || path.isEmpty() ? 0 : Integer.parseInt(path.substring(1));
        return new RedisConfig(parsed.getHost(), parsed.getPort() < 0 ? DEFAULT_PORT : parsed.getPort(), database,
            DEFAULT_COMMAND_TIMEOUT);
    }

    public RedisConfig withCommandTimeout(Duration commandTimeout) {
        return new RedisConfig(host, port, database, commandTimeout);
    }

    private static IllegalArgumentException invalid(String problem) {
        return new IllegalArgumentException("The Redis URI " + problem + "; expected " + FORM + ".");
    }
}
