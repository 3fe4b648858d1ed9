package dev.hotpath.apps.messages.internal;

import dev.hotpath.store.Durability;
import dev.hotpath.store.GroupCommitConfig;
import dev.hotpath.store.GroupCommitWriter;
import dev.hotpath.store.SqliteDatabase;
import dev.hotpath.store.Transaction;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Messages in one SQLite file ({@link MessagesSchema}): each writer has its own write connection (WAL
 * and the busy timeout let a server's writer and a worker process's take turns), and each thread that
 * reads (an event loop) has its own read-only connection with its prepared statements, opened on its
 * first read and closed by {@link #close()}. A read is a B-tree walk in SQLite's page cache: no hop to
 * another thread, which would cost more than the read.
 *
 * <p>Inserts are {@code INSERT OR IGNORE}, which skips a stored id, and also a row that breaks a
 * constraint: a writer checks its rows before inserting them (see {@link StoreMessage}).
 *
 * <p>Checkpoints: a writer checkpoints once the WAL holds {@value #WAL_AUTOCHECKPOINT_PAGES} pages, not
 * SQLite's default 1,000. Each message dirties a leaf of {@code (to_user, id)} at a place of its own
 * (its recipient's), so the WAL holds about one page per message and a checkpoint copies every distinct
 * page once, reading it from the WAL and writing it to the database. The longer the WAL, the more
 * often a recipient's leaf was rewritten within it and the fewer copies a message costs: at 1,000 pages
 * nearly every frame is a distinct page. Cost: up to about 40 MB of WAL beside the database (the file
 * is reused after each checkpoint, not truncated), and a restart after a crash reads it back once.
 */
public final class SqliteMessageStore implements MessageStore {
    /** WAL pages before a writer checkpoints (4 KiB each): see the class comment. */
    static final int WAL_AUTOCHECKPOINT_PAGES = 10_000;
    static final String INSERT =
        "INSERT OR IGNORE INTO messages (id, from_user, to_user, body, created_at) VALUES (?, ?, ?, ?, ?)";

    private final Path file;
    private final Durability durability;
    private final List<Connection> readConnections = new CopyOnWriteArrayList<>();
    private final ThreadLocal<MessageReads> reads = ThreadLocal.withInitial(this::openReads);

    private SqliteMessageStore(Path file, Durability durability) {
        this.file = file;
        this.durability = durability;
    }

    /** The store in {@code file}, written with {@code durability}; the schema is made by the first writer. */
    public static SqliteMessageStore open(Path file, Durability durability) {
        return new SqliteMessageStore(file, durability);
    }

    /** A new write connection, the schema created if missing. */
    @Override
    public GroupCommitWriter openWriter(GroupCommitConfig config) throws SQLException {
        Connection db = SqliteDatabase.openForWriting(file, durability);
        try (Statement s = db.createStatement()) {
            s.execute("PRAGMA wal_autocheckpoint=" + WAL_AUTOCHECKPOINT_PAGES);
            MessagesSchema.create(db);
        } catch (SQLException e) {
            db.close();
            throw e;
        }
        return new GroupCommitWriter(db, config);
    }

    /** SQLite is in this process: no round trip to save, so the message is inserted at once, as before. */
    @Override
    public void insertBatched(Transaction transaction, Message message) throws SQLException {
        insert(transaction, message);
    }

    @Override
    public String insertSql() {
        return INSERT;
    }

    @Override
    public BodyColumn body() {
        return BodyColumn.TEXT;
    }

    @Override
    public boolean isStoreFault(SQLException failure) {
        return StoreFaults.sqlite(failure);
    }

    @Override
    public boolean failedStatementAbortsTransaction() {
        return false;
    }

    @Override
    public <T> T read(Read<T> read) throws SQLException {
        return read.run(reads.get());
    }

    @Override
    public int readThreads() {
        return 0;
    }

    private MessageReads openReads() {
        try {
            Connection c = SqliteDatabase.openForReading(file);
            readConnections.add(c);
            return new MessageReads(c, BodyColumn.TEXT);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot open a read connection on " + file, e);
        }
    }

    /** Closes every thread's read connection. */
    @Override
    public void close() {
        for (Connection c : readConnections) {
            try {
                c.close();
            } catch (SQLException e) {
                // closing anyway
            }
        }
    }
}
