package dev.hotpath.store;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

/**
 * Where a {@link PostgresDatabase} connects and how long it waits. Start from {@link #parse}, which
 * reads a {@code postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE} URI and sets the defaults, and change
 * what differs with the {@code with*} methods.
 *
 * <p>The password never appears in {@link #toString()} nor in a parse error: both end up in logs.
 *
 * @param password null for none (trust or peer auth)
 * @param poolSize connections in the read pool, all kept open. Default {@value #DEFAULT_POOL_SIZE}.
 * @param connectTimeout the longest wait for a connection to open, or for a free one from the pool;
 *     also bounds a health check. Counted in whole seconds, rounded up. Default 5 s.
 * @param statementTimeout the server cancels a statement (and a commit) running longer. A connection
 *     whose server stops answering altogether is given up after twice this. Default 10 s.
 */
public record PostgresConfig(String host, int port, String database, String user, String password, int poolSize,
                             Duration connectTimeout, Duration statementTimeout) {
    public static final int DEFAULT_PORT = 5432;
    public static final int DEFAULT_POOL_SIZE = 4;
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    public static final Duration DEFAULT_STATEMENT_TIMEOUT = Duration.ofSeconds(10);
    private static final String FORM = "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE";

    public PostgresConfig {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(statementTimeout, "statementTimeout");
        if (port < 1 || port > 65_535 || poolSize < 1 || connectTimeout.toMillis() < 1_000
            || statementTimeout.toMillis() < 1_000) {
            throw new IllegalArgumentException("port must be 1 to 65535, poolSize positive, timeouts at least 1 s;"
                + " were " + port + ", " + poolSize + ", " + connectTimeout + ", " + statementTimeout);
        }
    }

    /**
     * Reads {@code uri}; without a password in it, the password is {@code PGPASSWORD} from
     * {@code environment} (pass {@code System::getenv}), as for psql.
     *
     * @throws IllegalArgumentException with one sentence naming what is wrong, never the password
     */
    public static PostgresConfig parse(String uri, Function<String, String> environment) {
        URI parsed;
        try {
            parsed = new URI(uri);
        } catch (URISyntaxException e) {
            throw invalid("is not a valid URI (" + e.getReason() + ")");
        }
        if (!"postgres".equals(parsed.getScheme()) && !"postgresql".equals(parsed.getScheme())) {
            throw invalid("must start with postgres://");
        }
        if (parsed.getHost() == null) {
            throw invalid("names no host");
        }
        if (parsed.getRawQuery() != null || parsed.getRawFragment() != null) {
            throw invalid("takes no ?parameters or #fragment; the pool size and timeouts have options of their own");
        }
        String userInfo = parsed.getRawUserInfo();
        if (userInfo == null || userInfo.isEmpty() || userInfo.startsWith(":")) {
            throw invalid("names no user");
        }
        String path = parsed.getRawPath();
        if (path == null || !path.matches("/[^/]+")) {
            throw invalid("must name exactly one database after the host");
        }
        int colon = userInfo.indexOf(':');
        String user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon));
        String password = colon < 0 || colon == userInfo.length() - 1
            ? environment.apply("PGPASSWORD") : decode(userInfo.substring(colon + 1));
        return new PostgresConfig(parsed.getHost(), parsed.getPort() < 0 ? DEFAULT_PORT : parsed.getPort(),
            decode(path.substring(1)), user, password, DEFAULT_POOL_SIZE, DEFAULT_CONNECT_TIMEOUT,
            DEFAULT_STATEMENT_TIMEOUT);
    }

    /** {@code jdbc:postgresql://HOST:PORT/DATABASE}: no user, no password. */
    public String jdbcUrl() {
        String bracketed = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
        return "jdbc:postgresql://" + bracketed + ":" + port + "/" + database;
    }

    public PostgresConfig withPoolSize(int poolSize) {
        return new PostgresConfig(host, port, database, user, password, poolSize, connectTimeout, statementTimeout);
    }

    public PostgresConfig withConnectTimeout(Duration connectTimeout) {
        return new PostgresConfig(host, port, database, user, password, poolSize, connectTimeout, statementTimeout);
    }

    public PostgresConfig withStatementTimeout(Duration statementTimeout) {
        return new PostgresConfig(host, port, database, user, password, poolSize, connectTimeout, statementTimeout);
    }

    /** Everything but the password, which shows as {@code ***} when there is one. */
    @Override
    public String toString() {
        return "PostgresConfig[" + user + (password == null ? "" : ":***") + "@" + host + ":" + port + "/" + database
            + ", poolSize=" + poolSize + ", connectTimeout=" + connectTimeout + ", statementTimeout="
            + statementTimeout + "]";
    }

    private static String decode(String component) {
        return URLDecoder.decode(component.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static IllegalArgumentException invalid(String problem) {
        return new IllegalArgumentException("The PostgreSQL URI " + problem + "; expected " + FORM + ".");
    }
}
