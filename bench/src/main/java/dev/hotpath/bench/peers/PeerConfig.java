package dev.hotpath.bench.peers;

import java.nio.file.Path;
import java.util.List;

/**
 * How a peer is started: the command line of {@link PeerMain}, parsed and checked. {@code data} is
 * set exactly when the store is SQLite; {@code accessLog} is {@code null} when the log is off.
 */
record PeerConfig(String name, int port, Store store, Path data, Path accessLog, String token) {
    static final List<String> NAMES = List.of("netty", "vertx", "helidon");

    static final String USAGE = """
        usage: PeerMain NAME --port N [--store memory|sqlite] [--data DIR] [--access-log FILE] [--token T]
          NAME               netty (S1-S3, memory only), vertx or helidon (S1-S4)
          --port N           port on 127.0.0.1; 0 takes any free one (the ready line names it)
          --store S          memory (default; S1-S3) or sqlite (S4, needs --data)
          --data DIR         the directory of users.db (WAL, synchronous=FULL)
          --access-log FILE  append one line per /api request to FILE; without it the log is off
          --token T          the bearer token (default %s)
        Prints "NAME listening on http://127.0.0.1:PORT" when ready; stops on SIGTERM or SIGINT.
        """.formatted(BearerAuth.DEFAULT_TOKEN);

    /** Where the users are kept. */
    enum Store { MEMORY, SQLITE }

    PeerConfig {
        if (!NAMES.contains(name)) {
            throw new IllegalArgumentException("unknown peer '" + name + "': one of " + String.join(", ", NAMES));
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("--port must be 0 to 65535, not " + port);
        }
        if (store == Store.SQLITE && name.equals("netty")) {
            throw new IllegalArgumentException(
                "the netty peer runs S1-S3 only and has no SQLite store: use --store memory, or vertx or helidon for S4");
        }
        if ((store == Store.SQLITE) != (data != null)) {
            throw new IllegalArgumentException(store == Store.SQLITE
                ? "--store sqlite needs --data DIR" : "--data is for --store sqlite only");
        }
        if (token.isEmpty()) {
            throw new IllegalArgumentException("--token must not be empty");
        }
    }

    static PeerConfig parse(String... args) {
        if (args.length == 0) {
            throw new IllegalArgumentException("no peer named");
        }
        Integer port = null;
        Store store = Store.MEMORY;
        Path data = null;
        Path accessLog = null;
        String token = BearerAuth.DEFAULT_TOKEN;
        for (int i = 1; i < args.length; i += 2) {
            String flag = args[i];
            if (i + 1 == args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            String value = args[i + 1];
            switch (flag) {
                case "--port" -> port = number(value);
                case "--store" -> store = switch (value) {
                    case "memory" -> Store.MEMORY;
                    case "sqlite" -> Store.SQLITE;
                    default -> throw new IllegalArgumentException("--store is memory or sqlite, not '" + value + "'");
                };
                case "--data" -> data = Path.of(value);
                case "--access-log" -> accessLog = Path.of(value);
                case "--token" -> token = value;
                default -> throw new IllegalArgumentException("unknown option " + flag);
            }
        }
        if (port == null) {
            throw new IllegalArgumentException("--port is required");
        }
        return new PeerConfig(args[0], port, store, data, accessLog, token);
    }

    /** The peer this config names. */
    Peer peer() {
        return switch (name) {
            case "netty" -> new NettyPeer();
            case "vertx" -> new VertxPeer();
            case "helidon" -> new HelidonPeer();
            default -> throw new IllegalStateException("checked in the constructor: " + name);
        };
    }

    /** Opens the store this config names; the caller closes it. */
    UserStore openStore() {
        return store == Store.SQLITE ? SqliteUserStore.open(data) : new MemoryUserStore();
    }

    private static int number(String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--port must be a number, not '" + value + "'");
        }
    }
}
