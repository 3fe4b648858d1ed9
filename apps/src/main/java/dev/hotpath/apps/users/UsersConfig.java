package dev.hotpath.apps.users;

import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;

/**
 * What the users app is opened with.
 *
 * @param store where users live
 * @param dataDir the directory of {@link Store#SQLITE}'s database (ignored in memory)
 * @param token the bearer token every {@code /api/} request must carry
 * @param accessLog the access log's file, {@code "-"} for standard output, or null for none
 * @param clock the time creates are stamped with and the access log writes
 */
public record UsersConfig(Store store, Path dataDir, String token, String accessLog, Clock clock) {
    /** The token of the published suite, used when none is given. */
    public static final String DEFAULT_TOKEN = "test-token-aaaaaaaaaaaaaaaaaaaa";

    /** Where the users live. */
    public enum Store {
        /** In the heap, gone at exit: scenario S3. */
        MEMORY,
        /** A SQLite database in the data directory, creates committed before their 201: scenario S4. */
        SQLITE
    }

    public UsersConfig {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(clock, "clock");
        if (store == Store.SQLITE && dataDir == null) {
            throw new IllegalArgumentException("the sqlite store needs a data directory");
        }
    }

    /** In memory, the default token, no access log, the system clock. */
    public static UsersConfig inMemory() {
        return new UsersConfig(Store.MEMORY, null, DEFAULT_TOKEN, null, Clock.systemUTC());
    }
}
