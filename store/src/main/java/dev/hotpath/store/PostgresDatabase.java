package dev.hotpath.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import javax.sql.DataSource;

/**
 * One PostgreSQL database as hotpath uses it: a small pool of connections for reads (HikariCP, all
 * {@link PostgresConfig#poolSize()} kept open), and write connections for a single
 * {@link GroupCommitWriter}, outside the pool, opened by {@link #openWriter()}:
 * {@code new GroupCommitWriter(database::openWriter, config)}. The writer is the one connection that
 * writes, so batches never wait on each other's row locks and group commit gets the whole fsync.
 *
 * <p>Every connection has {@code statement_timeout} set and a socket timeout of twice that, so neither
 * a slow statement nor a server that stopped answering holds a thread for longer. Opening one waits at
 * most the connect timeout. The password goes to the driver and nowhere else.
 *
 * <p>Cost: {@code poolSize} + 1 server connections (a backend process each, a few MB) and HikariCP's
 * housekeeping thread. Thread-safe.
 */
public final class PostgresDatabase implements AutoCloseable {
    private static final String APPLICATION_NAME = "hotpath";

    private final PostgresConfig config;
    private final HikariDataSource reads;

    /**
     * Opens the read pool.
     *
     * @throws IllegalStateException when no connection opens within the connect timeout: a service
     *     refuses to start against a database it cannot reach
     */
    public PostgresDatabase(PostgresConfig config) {
        this.config = config;
        HikariConfig pool = new HikariConfig();
        pool.setPoolName("postgres-reads");
        pool.setJdbcUrl(config.jdbcUrl());
        pool.setUsername(config.user());
        pool.setPassword(config.password());
        pool.setMaximumPoolSize(config.poolSize());
        pool.setMinimumIdle(config.poolSize());
        pool.setConnectionTimeout(config.connectTimeout().toMillis());
        pool.setValidationTimeout(config.connectTimeout().toMillis());
        pool.setInitializationFailTimeout(config.connectTimeout().toMillis());
        pool.setDataSourceProperties(driverProperties());
        try {
            this.reads = new HikariDataSource(pool);
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot connect to PostgreSQL at " + config.host() + ":" + config.port()
                + "/" + config.database() + " within " + config.connectTimeout() + ": " + e.getMessage(), e);
        }
    }

    /** The read pool: borrow, use and close a connection (auto-commit on) in one go; never keep one. */
    public DataSource reads() {
        return reads;
    }

    /**
     * A new write connection in manual-commit mode, with {@code synchronous_commit=on}: a commit returns
     * only after its WAL record is flushed to disk, so an acknowledged write survives a crash of the
     * server. The caller owns it (a {@link GroupCommitWriter} closes it).
     */
    public Connection openWriter() throws SQLException {
        Properties properties = driverProperties();
        properties.setProperty("user", config.user());
        if (config.password() != null) {
            properties.setProperty("password", config.password());
        }
        Connection db = DriverManager.getConnection(config.jdbcUrl(), properties);
        try {
            db.setAutoCommit(false);
            return db;
        } catch (SQLException e) {
            db.close();
            throw e;
        }
    }

    /**
     * Whether the database answers a query now, through the read pool, for a health check. Waits at
     * most the connect timeout for a pooled connection, then as long again for the answer. After an
     * outage it turns true once the pool has reopened a connection, which it retries in the background.
     */
    public boolean reachable() {
        try (Connection db = reads.getConnection()) {
            return db.isValid(timeoutSeconds(config.connectTimeout().toMillis()));
        } catch (SQLException e) {
            return false;
        }
    }

    /** Connections of the read pool in use, idle, and threads waiting for one, now; for metrics. */
    public record PoolUse(int active, int idle, int waiting) {
    }

    public PoolUse poolUse() {
        HikariPoolMXBean pool = reads.getHikariPoolMXBean();
        return pool == null ? new PoolUse(0, 0, 0)
            : new PoolUse(pool.getActiveConnections(), pool.getIdleConnections(), pool.getThreadsAwaitingConnection());
    }

    /** Closes the read pool; write connections belong to their writer. */
    @Override
    public void close() {
        reads.close();
    }

    private Properties driverProperties() {
        long statementMillis = config.statementTimeout().toMillis();
        Properties properties = new Properties();
        properties.setProperty("ApplicationName", APPLICATION_NAME);
        properties.setProperty("connectTimeout", Integer.toString(timeoutSeconds(config.connectTimeout().toMillis())));
        properties.setProperty("socketTimeout", Integer.toString(timeoutSeconds(2 * statementMillis)));
        properties.setProperty("tcpKeepAlive", "true");
        properties.setProperty("options", "-c statement_timeout=" + statementMillis + " -c synchronous_commit=on");
        return properties;
    }

    /** The driver counts its timeouts in whole seconds: round up, so a timeout never shrinks. */
    private static int timeoutSeconds(long millis) {
        return (int) Math.ceil(millis / 1000.0);
    }
}
