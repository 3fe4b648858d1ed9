package dev.hotpath.apps.messages.internal;

import dev.hotpath.store.BackgroundCheckpoints;
import dev.hotpath.store.Durability;
import dev.hotpath.store.GroupCommitConfig;
import dev.hotpath.store.GroupCommitWriter;
import dev.hotpath.store.SqliteDatabase;
import dev.hotpath.store.Transaction;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
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
 * <p>Checkpoints run beside each writer, not in it ({@link BackgroundCheckpoints}): a thread of the
 * writer's own copies the WAL into the database every {@link #CHECKPOINT_INTERVAL}, and the writer
 * runs one small checkpoint itself only after a commit that finds the WAL past {@value #REWIND_FRAMES}
 * pages, so that it starts over. SQLite's own checkpoint ran inside the commit that passed its bound:
 * the writer stopped while it copied the WAL's pages and synced the database file, and every message
 * committed meanwhile waited: beside it, the stream worker's store lag p99 (XADD to XACK) at
 * half of saturation fell to 0.41× (docs/BENCHMARKS.md), with the direct path's messages/s unchanged.
 *
 * <p>The lists of each user's messages are written beside each writer, in a file and on a thread of
 * their own, many batches at a time ({@link ListIndex}), not by the batch's own commit.
 *
 * <p>The WAL is let grow to {@value #REWIND_FRAMES} pages (about 40 MB), not SQLite's default 1,000,
 * and checkpoints run every 500 ms, not the social API's 200. Both were chosen when each message still
 * rewrote its recipient's leaf of an index on this table, a page of its own, so a checkpoint copied
 * nearly every WAL frame as a distinct page and the more commits it gathered the fewer copies a message
 * cost; now each batch dirties a few pages at the table's right edge, and they were not measured again.
 * Cost: up to about 40 MB of WAL beside the database (reused after each rewind, not truncated), a
 * restart after a crash reads it back once, and a thread and a connection per writer.
 */
public final class SqliteMessageStore implements MessageStore {
    /** How often a writer's checkpoint thread copies the WAL into the database: see the class comment. */
    static final Duration CHECKPOINT_INTERVAL = Duration.ofMillis(500);
    /** WAL pages (4 KiB each) past which a writer rewinds the WAL: see the class comment. */
    static final int REWIND_FRAMES = 10_000;
    static final String INSERT =
        "INSERT OR IGNORE INTO messages (id, from_user, to_user, body, created_at) VALUES (?, ?, ?, ?, ?)";

    private final Path file;
    private final Durability durability;
    private final Duration checkpointInterval;
    private final int rewindFrames;
    private final List<Connection> readConnections = new CopyOnWriteArrayList<>();
    private final List<BackgroundCheckpoints> checkpoints = new CopyOnWriteArrayList<>();
    private final List<ListIndex> lists = new CopyOnWriteArrayList<>();
    private final ThreadLocal<MessageReads> reads = ThreadLocal.withInitial(this::openReads);

    private SqliteMessageStore(Path file, Durability durability, Duration checkpointInterval, int rewindFrames) {
        this.file = file;
        this.durability = durability;
        this.checkpointInterval = checkpointInterval;
        this.rewindFrames = rewindFrames;
    }

    /** The store in {@code file}, written with {@code durability}; the schema is made by the first writer. */
    public static SqliteMessageStore open(Path file, Durability durability) {
        return new SqliteMessageStore(file, durability, CHECKPOINT_INTERVAL, REWIND_FRAMES);
    }

    /** {@link #open} with other checkpoint settings: tests see a WAL start over within a few commits. */
    static SqliteMessageStore open(Path file, Durability durability, Duration checkpointInterval, int rewindFrames) {
        return new SqliteMessageStore(file, durability, checkpointInterval, rewindFrames);
    }

    /**
     * A new write connection, the schema created if missing, with its checkpoints and the lists' thread
     * beside it, every message listed before it returns ({@link ListIndex}); both are closed by
     * {@link #close()}. {@code config}'s {@code afterCommit} is replaced by theirs.
     */
    @Override
    public GroupCommitWriter openWriter(GroupCommitConfig config) throws SQLException {
        Connection db = SqliteDatabase.openForWriting(file, durability);
        BackgroundCheckpoints writerCheckpoints;
        ListIndex writerLists;
        try {
            MessagesSchema.create(db);
            writerLists = ListIndex.open(file);
        } catch (SQLException | RuntimeException e) {
            SqliteDatabase.closeAfter(e, db);
            throw e;
        }
        try {
            writerCheckpoints = BackgroundCheckpoints.takeOver(db, file, durability, checkpointInterval, rewindFrames);
        } catch (SQLException | RuntimeException e) {
            writerLists.close();
            SqliteDatabase.closeAfter(e, db);
            throw e;
        }
        writerLists.start();
        lists.add(writerLists);
        checkpoints.add(writerCheckpoints);
        return new GroupCommitWriter(db, config.withAfterCommit(() -> {
            writerLists.committed();
            writerCheckpoints.afterCommit();
        }));
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
            ListIndex.attachTo(c, file);
            return new MessageReads(c, BodyColumn.TEXT, ListIndex.PAGES);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot open a read connection on " + file, e);
        }
    }

    /**
     * Stops every writer's checkpoints and lists and closes every thread's read connection; the writers
     * are closed first.
     */
    @Override
    public void close() {
        checkpoints.forEach(BackgroundCheckpoints::close);
        lists.forEach(ListIndex::close);
        for (Connection c : readConnections) {
            try {
                c.close();
            } catch (SQLException e) {
                // closing anyway
            }
        }
    }
}
