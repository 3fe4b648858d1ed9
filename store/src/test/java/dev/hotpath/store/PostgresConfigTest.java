package dev.hotpath.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class PostgresConfigTest {
    private static final Function<String, String> NO_ENVIRONMENT = name -> null;

    @Test
    void readsEveryPartOfTheUriAndSetsTheDefaults() {
        PostgresConfig config = PostgresConfig.parse("postgres://app:s3cret@db.internal:6543/links", NO_ENVIRONMENT);

        assertThat(config).isEqualTo(new PostgresConfig("db.internal", 6543, "links", "app", "s3cret",
            PostgresConfig.DEFAULT_POOL_SIZE, PostgresConfig.DEFAULT_CONNECT_TIMEOUT,
            PostgresConfig.DEFAULT_STATEMENT_TIMEOUT));
        assertThat(config.jdbcUrl()).isEqualTo("jdbc:postgresql://db.internal:6543/links");
    }

    @Test
    void defaultsThePortAndAcceptsThePostgresqlScheme() {
        PostgresConfig config = PostgresConfig.parse("postgresql://app@localhost/links", NO_ENVIRONMENT);

        assertThat(config.port()).isEqualTo(5432);
        assertThat(config.password()).isNull();
    }

    @Test
    void takesThePasswordFromPgpasswordWhenTheUriHasNone() {
        Function<String, String> environment = Map.of("PGPASSWORD", "from-env")::get;

        assertThat(PostgresConfig.parse("postgres://app@h/d", environment).password()).isEqualTo("from-env");
        assertThat(PostgresConfig.parse("postgres://app:in-uri@h/d", environment).password()).isEqualTo("in-uri");
    }

    @Test
    void decodesPercentEscapesInUserPasswordAndDatabase() {
        PostgresConfig config = PostgresConfig.parse("postgres://a%40b:p%2Fw+d@h/my%20db", NO_ENVIRONMENT);

        assertThat(config.user()).isEqualTo("a@b");
        assertThat(config.password()).isEqualTo("p/w+d");
        assertThat(config.database()).isEqualTo("my db");
    }

    @Test
    void bracketsAnIpv6HostInTheJdbcUrl() {
        assertThat(PostgresConfig.parse("postgres://app@[::1]:5433/d", NO_ENVIRONMENT).jdbcUrl())
            .isEqualTo("jdbc:postgresql://[::1]:5433/d");
    }

    @Test
    void rejectsEachMalformedUriWithOneSentenceThatNeverShowsThePassword() {
        Map<String, String> problems = Map.of(
            "mysql://app:hunter2@h/d", "must start with postgres://",
            "postgres://app:hunter2@/d", "names no host",
            "postgres://h/d", "names no user",
            "postgres://:hunter2@h/d", "names no user",
            "postgres://app:hunter2@h", "must name exactly one database",
            "postgres://app:hunter2@h/d/e", "must name exactly one database",
            "postgres://app:hunter2@h/d?sslmode=off", "takes no ?parameters",
            "postgres://app:hunter2@h:99999/d", "port must be 1 to 65535",
            "postgres://app:hun ter2@h/d", "is not a valid URI");
        problems.forEach((uri, problem) -> assertThatThrownBy(() -> PostgresConfig.parse(uri, NO_ENVIRONMENT))
            .as(uri)
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining(problem)
            .hasMessageNotContaining("hunter2")
            .hasMessageNotContaining("hun ter2"));
    }

    @Test
    void toStringMasksThePassword() {
        PostgresConfig config = PostgresConfig.parse("postgres://app:hunter2@h/d", NO_ENVIRONMENT);

        assertThat(config.toString()).doesNotContain("hunter2").contains("app:***@h:5432/d");
    }

    @Test
    void refusesTimeoutsUnderASecondAndAnEmptyPool() {
        PostgresConfig config = PostgresConfig.parse("postgres://app@h/d", NO_ENVIRONMENT);

        assertThatThrownBy(() -> config.withPoolSize(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> config.withConnectTimeout(Duration.ofMillis(999)))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> config.withStatementTimeout(Duration.ZERO))
            .isInstanceOf(IllegalArgumentException.class);
        assertThat(config.withPoolSize(2).withStatementTimeout(Duration.ofSeconds(3)))
            .extracting(PostgresConfig::poolSize, PostgresConfig::statementTimeout)
            .containsExactly(2, Duration.ofSeconds(3));
    }
}
