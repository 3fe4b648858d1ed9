package dev.hotpath.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hotpath.store.testing.ThrowawayRedis;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RedisConnectionsIT {
    @AfterEach
    void emptyTheSharedServer() {
        ThrowawayRedis.shared().flushAll();
    }

    @Test
    void setsAndGetsOverTheSharedConnection() {
        try (RedisConnections redis = new RedisConnections(RedisConfig.parse(ThrowawayRedis.shared().uri()))) {
            redis.shared().sync().set("greeting", "hello");

            assertThat(redis.shared().sync().get("greeting")).isEqualTo("hello");
        }
    }

    @Test
    void selectsTheDatabaseTheUriNames() {
        try (RedisConnections zero = new RedisConnections(RedisConfig.parse(ThrowawayRedis.shared().uri()));
             RedisConnections five = new RedisConnections(RedisConfig.parse(ThrowawayRedis.shared().uri() + "/5"))) {
            five.shared().sync().set("where", "five");

            assertThat(zero.shared().sync().get("where")).isNull();
            assertThat(five.shared().sync().get("where")).isEqualTo("five");
        }
    }

    @Test
    void deliversAPublishedMessageToASubscriber() throws InterruptedException {
        try (RedisConnections redis = new RedisConnections(RedisConfig.parse(ThrowawayRedis.shared().uri()));
             StatefulRedisPubSubConnection<String, String> subscriber = redis.openPubSub()) {
            BlockingQueue<String> received = new LinkedBlockingQueue<>();
            subscriber.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String message) {
                    received.add(channel + ":" + message);
                }
            });
            subscriber.sync().subscribe("news");

            assertThat(redis.shared().sync().publish("news", "extra")).isEqualTo(1);
            assertThat(received.poll(30, TimeUnit.SECONDS)).isEqualTo("news:extra");
        }
    }

    @Test
    void aCommandToAPausedServerFailsWithATimeoutAndTheNextOneWorksOnceResumed() {
        Duration timeout = Duration.ofMillis(300);
        try (ThrowawayRedis server = ThrowawayRedis.launch();
             RedisConnections redis = new RedisConnections(RedisConfig.parse(server.uri()).withCommandTimeout(timeout))) {
            server.pause();
            try {
                assertThatThrownBy(() -> redis.shared().sync().ping()).isInstanceOf(RedisCommandTimeoutException.class)
                    .hasMessageContaining("300 millisecond");
            } finally {
                server.resume();
            }
            assertThat(redis.shared().sync().ping()).isEqualTo("PONG");
        }
    }
}
