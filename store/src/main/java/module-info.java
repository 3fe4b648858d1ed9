/**
 * Durable writes: the group-commit writer, SQLite set-up and the data-directory lock. The JDBC types
 * of its API ({@code java.sql}) come with it.
 */
module dev.hotpath.store {
    requires transitive java.sql;
    requires org.xerial.sqlitejdbc;

    exports dev.hotpath.store;
}
