package dev.hotpath.apps.messages.internal;

import dev.hotpath.store.GroupCommitConfig;
import dev.hotpath.store.GroupCommitWriter;
import dev.hotpath.store.Migrations;
import dev.hotpath.store.PostgresConfig;
import dev.hotpath.store.PostgresDatabase;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Messages in PostgreSQL ({@code db/migration/messages}, applied at open by {@link Migrations}): a
 * writer is a {@link GroupCommitWriter} on {@link PostgresDatabase#openWriter} connections
 * ({@code synchronous_commit=on}, so a commit returns after its WAL flush; the writer reopens a broken
 * connection by itself, so the store coming back needs no restart), and a read borrows a connection
 * from the pool for its one query. A read waits on the network, so the service runs reads on
 * {@link #readThreads()} threads of their own, never on an event loop.
 *
 * <p>The schema keeps the SQLite one's shape and order: {@code id} is the UUID's 16 bytes as
 * {@code bytea}, which PostgreSQL compares byte by byte like SQLite's blob, so id order is time order
 * and the same statements bind it the same way. Names are {@code text COLLATE "C"} (compared as bytes,
 * exactly as the contract says, whatever the database's locale); the text is {@code bytea} of UTF-8
 * ({@link BodyColumn#UTF8_BYTES}: {@code text} cannot hold U+0000, which a message may).
 *
 * <p>Inserts are {@code ON CONFLICT (id) DO NOTHING}: a stored id is skipped; unlike SQLite's
 * {@code OR IGNORE} a row that breaks any other constraint is an error.
 */
public final class PostgresMessageStore implements MessageStore {
    /** The Flyway folder of this app's migrations. */
    static final String MIGRATIONS = "db/migration/messages";
    static final String INSERT = "INSERT INTO messages (id, from_user, to_user, body, created_at) VALUES (?, ?, ?, ?, ?)"
        + " ON CONFLICT (id) DO NOTHING";

    private final PostgresConfig config;
    private final PostgresDatabase database;

    private PostgresMessageStore(PostgresConfig config, PostgresDatabase database) {
        this.config = config;
        this.database = database;
    }

    /**
     * Connects (the read pool), and brings the schema up to date.
     *
     * @throws IllegalStateException when the database cannot be reached within the connect timeout, or
     *     its schema is newer than this release's
     */
    public static PostgresMessageStore open(PostgresConfig config) {
        PostgresDatabase database = new PostgresDatabase(config);
        try {
            Migrations.apply(database.reads(), "messages", MIGRATIONS);
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
        return new PostgresMessageStore(config, database);
    }

    @Override
    public GroupCommitWriter openWriter(GroupCommitConfig config) {
        return new GroupCommitWriter(database::openWriter, config);
    }

    @Override
    public String insertSql() {
        return INSERT;
    }

    @Override
    public BodyColumn body() {
        return BodyColumn.UTF8_BYTES;
    }

    @Override
    public boolean isStoreFault(SQLException failure) {
        return StoreFaults.postgres(failure);
    }

    @Override
    public boolean failedStatementAbortsTransaction() {
        return true;
    }

    /** Borrows a pooled connection for this one read (waits at most the connect timeout for one). */
    @Override
    public <T> T read(Read<T> read) throws SQLException {
        try (Connection db = database.reads().getConnection(); MessageReads reads = new MessageReads(db, body(), MessageReads.INDEXED_PAGES)) {
            return read.run(reads);
        }
    }

    @Override
    public int readThreads() {
        return config.poolSize();
    }

    @Override
    public void close() {
        database.close();
    }
}
