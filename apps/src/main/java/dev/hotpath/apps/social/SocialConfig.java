package dev.hotpath.apps.social;

import dev.hotpath.store.Durability;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;

/**
 * What {@link SocialApp} needs: the database (an existing file of {@link SocialSchema}, in WAL mode),
 * the HMAC secret of the tokens, the durability of writes ({@code NORMAL} by default, as the
 * challenge allows; {@code FULL} available), the clock for token expiry and uptime, and whether the
 * server runs exactly one event loop (then, under {@code NORMAL}, reads and writes share one
 * connection on it).
 */
public record SocialConfig(Path database, byte[] jwtSecret, Durability durability, Clock clock, boolean oneEventLoop) {
    public SocialConfig {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(clock, "clock");
        if (jwtSecret == null || jwtSecret.length == 0) {
            throw new IllegalArgumentException("JWT_SECRET (or --jwt-secret) is required");
        }
        if (!durability.persistent()) {
            throw new IllegalArgumentException("the social API stores every write: --durability must be full or normal");
        }
    }
}
