package dev.hotpath.apps.messages.internal;

import dev.hotpath.store.GroupCommitConfig;
import dev.hotpath.store.GroupCommitWriter;
import dev.hotpath.store.Transaction;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Where messages are kept: {@link SqliteMessageStore} (a file in the data directory, read on the event
 * loops) or {@link PostgresMessageStore} (a server, read from a pool off the loops). Everything above
 * it (validation, ids, the group-commit writes, the stream worker, the answers) is the same for both;
 * this interface is what differs: how a writer connects, the insert's SQL and how the text is bound,
 * which errors are the store's rather than a row's, and where reads may run.
 *
 * <p>The rule every implementation keeps: inserting an id that is already stored changes nothing and
 * is no error (the stream worker may store a message again after a crash between its commit and its
 * {@code XACK}).
 */
public interface MessageStore extends AutoCloseable {
    /** Opens a group-commit writer of its own on this store (the schema is in place from the store's open on). */
    GroupCommitWriter openWriter(GroupCommitConfig config) throws SQLException;

    /**
     * The insert of one message, five parameters (id, from, to, body, created_at), that leaves a stored
     * id as it is. Constant text: the writer prepares it once per connection.
     */
    String insertSql();

    /** How {@code body} is bound and read. */
    BodyColumn body();

    /** Inserts {@code message} inside the writer's transaction now; a no-op when its id is stored. */
    default void insert(Transaction transaction, Message message) throws SQLException {
        bind(transaction, message).executeUpdate();
    }

    /**
     * Inserts {@code message} as a batched row of the writer's transaction ({@link Transaction#addBatch}):
     * sent with the batch's other messages in one round trip before the commit.
     */
    default void insertBatched(Transaction transaction, Message message) throws SQLException {
        bind(transaction, message);
        transaction.addBatch(insertSql());
    }

    /** The insert statement with {@code message}'s five parameters set. */
    private PreparedStatement bind(Transaction transaction, Message message) throws SQLException {
        PreparedStatement insert = transaction.statement(insertSql());
        insert.setBytes(1, message.id().bytes());
        insert.setString(2, message.from());
        insert.setString(3, message.to());
        body().bind(insert, 4, message.message());
        insert.setString(5, message.createdAt());
        return insert;
    }

    /**
     * Whether {@code failure} is the store's (retrying later can succeed: the stream worker backs off and
     * counts it against no entry) rather than one row's own (counted, dead-lettered after
     * {@link StreamWorker#MAX_DELIVERIES}).
     */
    boolean isStoreFault(SQLException failure);

    /**
     * Whether a failed statement aborts the whole transaction (PostgreSQL: every later statement fails
     * until a rollback) rather than undoing itself alone (SQLite). Then a batch of rows that met one
     * row's own failure must be run again with a savepoint per row ({@link StoreEntries}).
     */
    boolean failedStatementAbortsTransaction();

    /**
     * Runs {@code read} on this thread with a {@link MessageReads} over a connection of this store. It
     * may block for a network round trip exactly when {@link #readThreads()} is positive.
     */
    <T> T read(Read<T> read) throws SQLException;

    /**
     * 0 when {@link #read} never waits on a network (SQLite: each event loop keeps its own connection,
     * and a read is a walk in the page cache), so it runs on the loop that received the request; else
     * how many threads should run reads off the loops (one per pooled connection, so none waits for a
     * connection while another idles).
     */
    int readThreads();

    /** Releases the read connections (writers belong to whoever opened them). */
    @Override
    void close();

    /** A read on one connection's {@link MessageReads}. */
    @FunctionalInterface
    interface Read<T> {
        T run(MessageReads reads) throws SQLException;
    }
}
