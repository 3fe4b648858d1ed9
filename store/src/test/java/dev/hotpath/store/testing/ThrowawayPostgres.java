package dev.hotpath.store.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;

/**
 * A PostgreSQL server of its own for tests: {@code initdb} into a temp dir (trust auth, so no
 * password), started on a free 127.0.0.1 port with its unix socket inside that dir, and a database
 * {@value #DATABASE}. Durability settings are the defaults ({@code fsync}, {@code synchronous_commit}
 * on), so a commit here costs what it costs in production; only {@code initdb} skips syncing the files
 * it creates, which no test relies on.
 *
 * <p>Tests share one server per JVM through {@link #shared()}: an {@code initdb} and a start cost about
 * two seconds. A test that kills, stops or otherwise breaks a server {@link #launch()}es its own and
 * closes it. Every server is also closed by a shutdown hook, so no process or temp dir outlives the
 * test JVM unless that JVM is itself killed.
 *
 * <p>As root (under CI) the server runs as the {@code postgres} user (see {@link ServerUser}).
 * Not thread-safe: one test drives a server at a time.
 */
public final class ThrowawayPostgres implements AutoCloseable {
    /** The database every server starts with. */
    public static final String DATABASE = "hotpath";
    /** The superuser {@code initdb} creates; trust auth lets it in without a password. */
    public static final String USER = "postgres";

    private final Path dir;
    private final Path data;
    private final Path sockets;
    private final Path log;
    private final Thread cleanup = new Thread(this::close, "throwaway-postgres-cleanup");
    private int port;
    private Process process;

    private ThrowawayPostgres(Path dir) {
        this.dir = dir;
        this.data = dir.resolve("data");
        this.sockets = dir.resolve("sockets");
        this.log = dir.resolve("postgres.log");
    }

    /** The server this test JVM shares, launched on first use and closed when the JVM exits. */
    public static ThrowawayPostgres shared() {
        return Shared.SERVER;
    }

    private static final class Shared {
        static final ThrowawayPostgres SERVER = launch();
    }

    /** A new server of the caller's own, running with {@value #DATABASE} created; close it when done. */
    public static ThrowawayPostgres launch() {
        ThrowawayPostgres server;
        try {
            server = new ThrowawayPostgres(ServerUser.createOwnedDirectory(Files.createTempDirectory("hotpath-pg-")));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temp dir for PostgreSQL", e);
        }
        Runtime.getRuntime().addShutdownHook(server.cleanup);
        try {
            server.initdb();
            server.startOnAFreePort();
            server.createDatabase(DATABASE);
            return server;
        } catch (RuntimeException | Error e) { // Await's failures are AssertionErrors
            server.close();
            throw e;
        }
    }

    public int port() {
        return port;
    }

    /** {@code jdbc:postgresql://127.0.0.1:PORT/DATABASE}; log in as {@link #USER}, no password. */
    public String jdbcUrl() {
        return jdbcUrl(DATABASE);
    }

    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    /** {@code postgres://postgres@127.0.0.1:PORT/DATABASE}, the form {@code PostgresConfig} parses. */
    public String uri() {
        return uri(DATABASE);
    }

    public String uri(String database) {
        return "postgres://" + USER + "@127.0.0.1:" + port + "/" + database;
    }

    /** Creates an empty database, for a test that needs a schema of its own; returns its {@link #uri}. */
    public String createDatabase(String name) {
        if (!name.matches("[a-z][a-z0-9_]*")) {
            throw new IllegalArgumentException("database names here are lower case, digits and _: " + name);
        }
        try (Connection db = connect("postgres"); Statement statement = db.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + name, e);
        }
        return uri(name);
    }

    /** SIGKILLs the postmaster (a crash) and waits until it and its backends are gone. */
    public void kill() {
        ServerProcesses.killTree(running());
        process = null;
    }

    /** A fast shutdown (SIGINT): open transactions roll back, the server checkpoints and exits. */
    public void stop() {
        Process server = running();
        ServerProcesses.signal(server.pid(), "INT");
        ServerProcesses.awaitExit(server.toHandle());
        process = null;
    }

    /** Starts the server again on the same port and data dir (crash recovery runs after a kill). */
    public void start() {
        if (process != null) {
            throw new IllegalStateException("PostgreSQL is already running on port " + port);
        }
        if (!tryStart()) {
            throw new IllegalStateException("PostgreSQL did not start again on port " + port + ": " + ServerProcesses.logTail(log));
        }
    }

    /** Kills the server if it runs and removes its temp dir. Idempotent. */
    @Override
    public void close() {
        if (process != null) {
            kill();
        }
        ServerProcesses.dispose(dir, cleanup);
    }

    private void initdb() {
        ServerUser.createOwnedDirectory(sockets);
        Path bin = PostgresBinaries.directory();
        ServerProcesses.run(ServerUser.postgres(List.of(bin.resolve("initdb").toString(), "-D", data.toString(),
            "-U", USER, "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions")), dir);
    }

    /** Starts on a port that was free; another process may take it first, so a failed start retries. */
    private void startOnAFreePort() {
        ServerProcesses.startOnAFreePort(free -> {
            port = free;
            return tryStart();
        }, "PostgreSQL", log);
    }

    /** Starts the postmaster and waits until it takes connections; false if it exited instead. */
    private boolean tryStart() {
        List<String> command = ServerUser.postgres(List.of(PostgresBinaries.directory().resolve("postgres").toString(),
            "-D", data.toString(), "-p", Integer.toString(port), "-k", sockets.toString(),
            "-c", "listen_addresses=127.0.0.1"));
        try {
            process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        }
        if (Await.untilOrExit("PostgreSQL accepting connections on port " + port, process, () -> {
            connect("postgres").close();
            return true;
        }, () -> ServerProcesses.logTail(log))) {
            return true;
        }
        process = null;
        return false;
    }

    private Connection connect(String database) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", USER);
        properties.setProperty("connectTimeout", "5");
        return DriverManager.getConnection(jdbcUrl(database), properties);
    }

    /** The temp dir holding everything the server wrote; gone after {@link #close()}. */
    public Path directory() {
        return dir;
    }

    private Process running() {
        if (process == null) {
            throw new IllegalStateException("PostgreSQL is not running");
        }
        return process;
    }
}
