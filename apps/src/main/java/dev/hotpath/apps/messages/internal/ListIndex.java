package dev.hotpath.apps.messages.internal;

import dev.hotpath.store.Durability;
import dev.hotpath.store.OwnedThreads;
import dev.hotpath.store.Rest;
import dev.hotpath.store.SqliteDatabase;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The SQLite store's two lists, {@code inbox (to_user, id)} and {@code outbox (from_user, id)}, kept in
 * a file of their own ({@value #FILE}) and filled by a thread of their own, off the commit path. An
 * index on the messages table would be written inside every batch's commit, and a message's entry lands
 * at a place of its own (its recipient's), so each message of a batch rewrote a 4 KiB leaf into the
 * WAL: that held group commit to 7.8× one commit per message where the table alone reached 17×
 * (docs/BENCHMARKS.md). Here the writer writes the table alone, and this thread copies the rows not
 * listed yet into both lists, many batches at a time, sorted by key, in one transaction (a "pass"): a
 * recipient's leaf is then written once for all its messages of the pass instead of once per message.
 *
 * <p>Why another file and thread: SQLite lets one connection write a file at a time, so a pass in the
 * messages file, on the writer's thread or any other, would hold every batch for its length, and the
 * stream's store lag p99 at half of saturation rose past its 50 ms target when it did
 * (docs/BENCHMARKS.md). In a file of its own a pass only shares
 * the CPU.
 *
 * <p>The invariant readers rely on: every row of {@code messages} whose rowid is at most
 * {@code listed.up_to} is in both lists; a pass adds rows and moves {@code up_to} past them in one
 * transaction of this file. A page query ({@link #PAGES}, on a read connection with this file attached
 * as {@code lists}) reads its user's range of one list and adds the rows past {@code up_to} (the
 * unlisted tail, a range of the table's rowids), so a message is listed from its commit on, as with an
 * index on the table. Rowids grow with every insert (messages are never deleted, so SQLite's next rowid
 * is always the largest plus one), so the tail holds exactly the rows stored since the last pass, by
 * any writer of the file (a worker process too). A page joins the lists to the table by id, so however
 * the two files' snapshots of one read fall, it shows no message the table lacks.
 *
 * <p>When: a pass runs once {@value #TRIGGER_ROWS} rows are unlisted, or once rows are unlisted and no
 * commit has come for {@link #IDLE} (so an idle server lists everything promptly); the thread looks
 * every {@link #POLL} while rows are unlisted, and when none are it rests until its writer commits again
 * (a worker process has a writer and lists of its own), or for {@link #LONGEST_REST}, for rows of a
 * writer that keeps no lists (an older release; pages read them from the table meanwhile): an idle
 * server does not wake it a hundred times a second.
 * Crashes: a pass that did not commit changed nothing; this file is written with
 * {@code synchronous=NORMAL} (it can be rebuilt from the table, so it needs no fsync per pass), and a
 * file that lists more rows than the table holds (the table lost its last commits in a power cut under
 * {@code --durability normal}, or the file was copied from elsewhere) is emptied and rebuilt at open.
 * A file SQLite finds damaged at open (not a database, or a corrupt page on the way) is set aside
 * ({@link DamagedLists}) and the lists are built anew from the table: they hold nothing the table does
 * not, so a damaged copy must not keep the server from starting. (Another process that had the damaged
 * file open may go on writing its passes to the copy set aside until it restarts.)
 * At open everything unlisted is listed before the writer takes a write ({@link #catchUp()}), which is
 * also how a data directory of an older release, whose lists were indexes on the table, gets its
 * lists.
 *
 * <p>Cost: a thread, a connection and a file beside the messages (with a WAL of up to about 40 MB, see
 * {@link #CHECKPOINT_PAGES}); under a write load that keeps the writer busy a page reads up to about
 * {@value #TRIGGER_ROWS} rows of the table's tail (plus one stream-worker batch); a pass's CPU,
 * {@value #TRIGGER_ROWS} rows at a time.
 */
public final class ListIndex implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ListIndex.class.getName());
    /** The lists' file, beside {@link MessagesSchema#FILE}. */
    static final String FILE = "lists.db";
    /** Unlisted rows after which a pass runs at once: see the class comment. */
    static final int TRIGGER_ROWS = 8_192;
    /** Most rows one pass lists, so that catching up a large tail never holds one huge transaction. */
    static final int MOST_ROWS_PER_PASS = 65_536;
    /** A writer without a commit for this long is idle: whatever is unlisted is listed then. */
    static final long IDLE = TimeUnit.MILLISECONDS.toNanos(50);
    /** How often the thread looks at the tail while rows are unlisted. */
    static final long POLL = TimeUnit.MILLISECONDS.toNanos(10);
    /** The longest the thread rests when nothing is unlisted, unless a commit wakes it first. */
    static final long LONGEST_REST = TimeUnit.SECONDS.toNanos(1);
    /**
     * WAL pages after which a pass's commit checkpoints this file, not SQLite's 1,000: a pass writes
     * about a page per user it lists, so at 1,000 nearly every pass copied its pages into the file
     * again; at 10,000 a leaf that several passes rewrote is copied once. Measured: 0.955× the server's
     * CPU per message (docs/BENCHMARKS.md). Cost: this file's WAL grows to about 40 MB.
     */
    static final int CHECKPOINT_PAGES = 10_000;

    static final String DDL = """
        CREATE TABLE IF NOT EXISTS inbox (
          to_user TEXT NOT NULL,
          id BLOB NOT NULL,
          PRIMARY KEY (to_user, id)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS outbox (
          from_user TEXT NOT NULL,
          id BLOB NOT NULL,
          PRIMARY KEY (from_user, id)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS listed (
          one INTEGER NOT NULL PRIMARY KEY CHECK (one = 1),
          up_to INTEGER NOT NULL);
        INSERT OR IGNORE INTO listed (one, up_to) VALUES (1, 0)
        """;
    /** Pages of one user's messages, newest first: the user, then {@code before} (if any), then the limit. */
    static final MessageReads.PageQueries PAGES = new MessageReads.PageQueries(
        page("inbox", "to_user", false), page("inbox", "to_user", true),
        page("outbox", "from_user", false), page("outbox", "from_user", true));

    /** The table's last rowid, on this file's connection (the messages file attached as {@code store}). */
    private static final String LAST_ROW = "(SELECT coalesce(max(rowid), 0) FROM store.messages)";
    static final String UNLISTED = "SELECT " + LAST_ROW + " - (SELECT up_to FROM listed)";
    static final String LIST_INBOX = list("inbox", "to_user");
    static final String LIST_OUTBOX = list("outbox", "from_user");
    /** Past the rows the two inserts above listed: they read the same bounds in the same transaction. */
    static final String ADVANCE = "UPDATE listed SET up_to = min(up_to + ?, " + LAST_ROW + ")";

    private final Connection db;
    private final long triggerRows;
    private final int mostRowsPerPass;
    private PreparedStatement unlisted;
    private PreparedStatement listInbox;
    private PreparedStatement listOutbox;
    private PreparedStatement advance;
    private final long longestRest;
    private volatile long lastCommit = System.nanoTime();
    /** Commits seen, counted by the writer's thread alone: a look compares it to see a commit come meanwhile. */
    private volatile long commits;
    /** The thread's rest while nothing is unlisted: the next {@link #committed()} wakes it. */
    private final Rest rest = new Rest();
    private volatile boolean closing;
    private Thread thread;
    /** Whether the last try failed: a run of failures is logged once. */
    private boolean failing;

    private ListIndex(Connection db, long triggerRows, int mostRowsPerPass, long longestRest) {
        this.db = db;
        this.triggerRows = triggerRows;
        this.mostRowsPerPass = mostRowsPerPass;
        this.longestRest = longestRest;
    }

    /**
     * The lists of the messages in {@code messagesFile} (whose schema exists), in {@value #FILE} beside
     * it, created if missing, rebuilt if they list rows the table lacks or the file is damaged (then kept
     * aside: {@link DamagedLists}), and caught up: everything is listed when this returns. {@link #start()}
     * then keeps them so.
     */
    static ListIndex open(Path messagesFile) throws SQLException {
        return open(messagesFile, TRIGGER_ROWS, MOST_ROWS_PER_PASS);
    }

    /**
     * {@link #open(Path)} with other sizes: tests see passes after a few rows, and the pass's benchmark
     * ({@code ListPassBenchmark}) passes of the size it measures.
     */
    public static ListIndex open(Path messagesFile, long triggerRows, int mostRowsPerPass) throws SQLException {
        return open(messagesFile, triggerRows, mostRowsPerPass, LONGEST_REST);
    }

    /**
     * {@link #open(Path, long, int)} with another longest rest: a test sees that only a commit wakes the
     * thread.
     */
    static ListIndex open(Path messagesFile, long triggerRows, int mostRowsPerPass, long longestRest)
        throws SQLException {
        try {
            return openOnce(messagesFile, triggerRows, mostRowsPerPass, longestRest);
        } catch (SQLException e) {
            Path lists = messagesFile.resolveSibling(FILE);
            if (!StoreFaults.damaged(e) || !DamagedLists.damaged(lists, e)) {
                throw e; // not a damage, or the messages file's own
            }
            try {
                Path kept = DamagedLists.setAside(lists);
                LOG.log(System.Logger.Level.WARNING, "the message lists are damaged (" + e.getMessage() + "); kept as "
                    + kept + ", listing every message anew");
            } catch (IOException moving) {
                e.addSuppressed(moving);
                throw e;
            }
            return openOnce(messagesFile, triggerRows, mostRowsPerPass, longestRest);
        }
    }

    private static ListIndex openOnce(Path messagesFile, long triggerRows, int mostRowsPerPass, long longestRest)
        throws SQLException {
        Connection db = SqliteDatabase.openForWriting(messagesFile.resolveSibling(FILE), Durability.NORMAL);
        try {
            db.setAutoCommit(true); // ATTACH cannot run inside the transaction manual commit keeps open
            SqliteDatabase.attach(db, messagesFile, "store");
            try (Statement s = db.createStatement()) {
                s.execute("PRAGMA wal_autocheckpoint=" + CHECKPOINT_PAGES);
                MessagesSchema.executeAll(s, DDL);
            }
            db.setAutoCommit(false);
            ListIndex lists = new ListIndex(db, triggerRows, mostRowsPerPass, longestRest);
            lists.rebuildIfAhead();
            lists.catchUp();
            return lists;
        } catch (SQLException | RuntimeException e) {
            SqliteDatabase.closeAfter(e, db);
            throw e;
        }
    }

    /**
     * Attaches the lists of the messages in {@code messagesFile} to {@code read}, a connection on that
     * file in auto-commit mode, as the schema {@link #PAGES} reads them from.
     */
    static void attachTo(Connection read, Path messagesFile) throws SQLException {
        SqliteDatabase.attach(read, messagesFile.resolveSibling(FILE), "lists");
    }

    /** The SQL of a page of {@code list}: its range, merged with the unlisted rows of the same user. */
    private static String page(String list, String column, boolean before) {
        String range = column + " = ?1" + (before ? " AND id < ?2" : "");
        String limit = before ? "?3" : "?2";
        return "SELECT id, from_user, to_user, body, created_at FROM messages WHERE id IN ("
            + "SELECT id FROM (SELECT id FROM lists." + list + " WHERE " + range + " ORDER BY id DESC LIMIT " + limit + ")"
            + " UNION ALL SELECT id FROM messages WHERE rowid > (SELECT up_to FROM lists.listed) AND " + range + ")"
            + " ORDER BY id DESC LIMIT " + limit;
    }

    /** The insert that lists the next rows past {@code up_to} (at most the bound parameter) in {@code list}. */
    private static String list(String list, String column) {
        return "INSERT OR IGNORE INTO " + list + " (" + column + ", id) SELECT " + column + ", id FROM store.messages"
            + " WHERE rowid > (SELECT up_to FROM listed) AND rowid <= (SELECT up_to FROM listed) + ?"
            + " ORDER BY " + column + ", id";
    }

    /** Starts the thread that lists what the writers commit; {@link #close()} stops it. */
    void start() {
        thread = Thread.ofPlatform().name("message-lists").daemon(true).start(this::run);
    }

    /**
     * For {@code GroupCommitConfig.afterCommit}: a commit came now (the writer is not idle), and wakes the
     * thread if it rests. Costs two volatile writes and a volatile read a commit; the wake-up, once a rest.
     */
    void committed() {
        lastCommit = System.nanoTime();
        commits++; // one writer thread calls this: no lost update
        rest.wake();
    }

    /** Whether the thread rests with nothing unlisted, for a test to wait for. */
    boolean resting() {
        return rest.resting();
    }

    /** Whether a pass is due with {@code unlisted} rows unlisted, {@code sinceCommit} ns after the last commit. */
    boolean due(long unlisted, long sinceCommit) {
        return unlisted >= triggerRows || unlisted > 0 && sinceCommit >= IDLE;
    }

    /** Lists every unlisted row, a pass at a time. */
    void catchUp() throws SQLException {
        while (unlisted() > 0) {
            pass();
        }
    }

    /** Rows past {@code up_to}; ends its read transaction, so that the next look sees later commits. */
    long unlisted() throws SQLException {
        if (unlisted == null) {
            unlisted = db.prepareStatement(UNLISTED);
        }
        try (ResultSet row = unlisted.executeQuery()) {
            row.next();
            return row.getLong(1);
        } catch (SQLException e) {
            forgetStatements(e);
            throw e;
        } finally {
            db.commit();
        }
    }

    /** Lists up to {@code mostRowsPerPass} rows past {@code up_to} and moves it past them, in one commit. */
    public void pass() throws SQLException {
        if (listInbox == null) {
            listInbox = db.prepareStatement(LIST_INBOX);
            listOutbox = db.prepareStatement(LIST_OUTBOX);
            advance = db.prepareStatement(ADVANCE);
        }
        try {
            for (PreparedStatement statement : new PreparedStatement[] {listInbox, listOutbox, advance}) {
                statement.setInt(1, mostRowsPerPass);
                statement.executeUpdate();
            }
            db.commit();
        } catch (SQLException e) {
            try {
                db.rollback();
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            forgetStatements(e);
            throw e;
        }
    }

    /**
     * Closes the prepared statements after a failure, to be prepared anew by the next try: the driver may
     * have closed one that failed (it does when the schema changed under it).
     */
    private void forgetStatements(SQLException failure) {
        for (PreparedStatement statement : new PreparedStatement[] {unlisted, listInbox, listOutbox, advance}) {
            try {
                if (statement != null) {
                    statement.close();
                }
            } catch (SQLException e) {
                failure.addSuppressed(e);
            }
        }
        unlisted = null;
        listInbox = null;
        listOutbox = null;
        advance = null;
    }

    /** Empties the lists when they list more rows than the table holds, so the catch-up lists them anew. */
    private void rebuildIfAhead() throws SQLException {
        if (unlisted() >= 0) {
            return;
        }
        LOG.log(System.Logger.Level.WARNING, "the message lists name rows the table does not hold; listing every message anew");
        try (Statement s = db.createStatement()) {
            s.execute("DELETE FROM inbox");
            s.execute("DELETE FROM outbox");
            s.execute("UPDATE listed SET up_to = 0");
        }
        db.commit();
    }

    /**
     * Looks at the tail: after a pass at once, while rows wait every {@link #POLL}, and with none it rests
     * unless a commit came since the look began.
     */
    private void run() {
        while (!closing) {
            long commitsBefore = commits;
            switch (look()) {
                case PASSED -> { }
                case WAITING -> LockSupport.parkNanos(this, POLL);
                case NOTHING -> rest.rest(longestRest, () -> commits == commitsBefore && !closing);
            }
        }
    }

    /** What a look found: it ran a pass, rows wait (or the look failed and is tried again), or nothing is unlisted. */
    private enum Look { PASSED, WAITING, NOTHING }

    /** One look at the tail and, when {@link #due}, a pass. */
    private Look look() {
        try {
            long unlisted = unlisted();
            Look look = unlisted == 0 ? Look.NOTHING : Look.WAITING;
            if (due(unlisted, System.nanoTime() - lastCommit)) {
                pass();
                look = Look.PASSED;
            }
            failing = false;
            return look;
        } catch (SQLException e) {
            if (!failing) { // once per run of failures, not every poll
                LOG.log(System.Logger.Level.WARNING, "listing new messages failed; pages read them from the table"
                    + " meanwhile, and it is tried again: " + e.getMessage());
            }
            failing = true;
            return Look.WAITING;
        }
    }

    /** Stops the thread (a pass under way finishes first), then closes the connection. */
    @Override
    public void close() {
        closing = true;
        boolean interrupted = false;
        if (thread != null) {
            LockSupport.unpark(thread);
            interrupted = OwnedThreads.awaitEnd(thread);
        }
        try {
            db.close();
        } catch (SQLException e) {
            LOG.log(System.Logger.Level.WARNING, "closing the lists' connection failed: " + e.getMessage());
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
