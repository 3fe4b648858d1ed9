package dev.hotpath.apps.shortener.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hotpath.store.RedisConfig;
import dev.hotpath.store.RedisConnections;
import dev.hotpath.store.testing.Await;
import dev.hotpath.store.testing.ThrowawayRedis;
import io.lettuce.core.AclSetuserArgs;
import io.lettuce.core.RedisCommandExecutionException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Test;

class RedisLinksIT {

    /** Connections Redis holds now, the asking one included. */
    private static long clients(RedisConnections redis) {
        return redis.shared().sync().clientList().lines().filter(line -> !line.isBlank()).count();
    }

    @Test
    void aSubscriptionRedisRefusesLeavesNoConnectionOpenBehind() throws InterruptedException {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try (ThrowawayRedis server = ThrowawayRedis.launch();
             RedisConnections redis = new RedisConnections(RedisConfig.parse(server.uri()))) {
            // Commands still work for the default user; subscribing to any channel is refused (NOPERM).
            redis.shared().sync().aclSetuser("default", AclSetuserArgs.Builder.resetChannels());
            long before = clients(redis);

            assertThatThrownBy(() -> new RedisLinks(redis, Duration.ofMinutes(10), 302, scheduler, key -> { }, () -> { }))
                .isInstanceOf(RedisCommandExecutionException.class)
                .hasMessageContaining("NOPERM");

            // The look-up and subscription connections were closed from this side; Redis drops them
            // once it reads their end, so wait for that (a leak keeps them for ever and fails here).
            Await.until("Redis to drop the refused links' connections", () -> clients(redis) <= before);
            assertThat(clients(redis)).isEqualTo(before);
        } finally {
            scheduler.shutdownNow();
        }
    }
}
