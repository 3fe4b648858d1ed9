package dev.hotpath.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RedisConfigTest {
    @Test
    void readsHostPortAndDatabase() {
        assertThat(RedisConfig.parse("redis://cache.internal:6380/3"))
            .isEqualTo(new RedisConfig("cache.internal", 6380, 3, RedisConfig.DEFAULT_COMMAND_TIMEOUT));
    }

    @Test
    void defaultsPortAndDatabase() {
        assertThat(RedisConfig.parse("redis://localhost"))
            .isEqualTo(new RedisConfig("localhost", 6379, 0, RedisConfig.DEFAULT_COMMAND_TIMEOUT));
    }

    @Test
    void rejectsEachMalformedUriWithOneSentence() {
        Map<String, String> problems = Map.of(
            "rediss://h", "must start with redis://",
            "redis:///0", "names no host",
            "redis://:pw@h", "takes no user or password",
            "redis://h/db", "may end only in /DB",
            "redis://h/0/1", "may end only in /DB",
            "redis://h/", "may end only in /DB",
            "redis://h?timeout=1", "takes no ?parameters",
            "redis://h:0", "port must be 1 to 65535",
            "redis://h h", "is not a valid URI");
        problems.forEach((uri, problem) -> assertThatThrownBy(() -> RedisConfig.parse(uri))
            .as(uri)
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining(problem));
    }

    @Test
    void refusesANonPositiveCommandTimeout() {
        RedisConfig config = RedisConfig.parse("redis://h");

        assertThatThrownBy(() -> config.withCommandTimeout(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThat(config.withCommandTimeout(Duration.ofMillis(250)).commandTimeout()).isEqualTo(Duration.ofMillis(250));
    }
}
