/**
 * Durable writes: the group-commit writer, SQLite set-up and the data-directory lock; PostgreSQL (a
 * read pool, the writer's connections, Flyway migrations) and Redis connections. The JDBC types of its
 * API ({@code java.sql}) and Lettuce's connection types come with it.
 */
module dev.hotpath.store {
    requires transitive java.sql;
    requires transitive lettuce.core;
    requires org.xerial.sqlitejdbc;
    requires org.postgresql.jdbc;
    requires com.zaxxer.hikari;
    requires flyway.core;

    exports dev.hotpath.store;
}
