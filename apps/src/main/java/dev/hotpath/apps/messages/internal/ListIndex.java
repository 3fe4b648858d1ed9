package dev.hotpath.apps.messages.internal;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The SQLite store's two list indexes, {@code inbox (to_user, id)} and {@code outbox (from_user, id)},
 * kept off the commit path. An index on the messages table itself would be written inside every
 * batch's commit, and a message's entry lands at a place of its own (its recipient's), so each message
 * of a batch rewrote a 4 KiB leaf into the WAL: that held group commit to 7.8× one commit per message
 * where the table alone reached 17× (docs/BENCHMARKS.md). Here the table is written alone, and the
 * writer copies the rows it has not listed yet into both indexes afterwards, many batches at a time,
 * sorted by key, in one transaction of their own: a recipient's leaf is then written once for all of
 * its messages in that pass instead of once per message.
 *
 * <p>The invariant readers rely on: every row of {@code messages} whose rowid is at most
 * {@code listed.up_to} is in both indexes, and a pass moves rows into them and {@code up_to} past them in
 * one transaction. A page query ({@link #PAGES}) reads its range of one index and adds the rows past
 * {@code up_to} (the unlisted tail, a range of the table's rowids), in one read transaction, so a
 * message is listed from its commit on, exactly as with an index on the table. Rowids grow with every
 * insert (messages are never deleted, so SQLite's next rowid is always the largest plus one), so the
 * tail holds exactly the rows inserted since the last pass, by any writer of the file (a worker process
 * too). The tail is read row by row, so it is kept short: a pass runs after a commit that leaves
 * {@link #TRIGGER_ROWS} rows unlisted, and whenever the writer is idle with rows unlisted. A crash
 * loses nothing: a pass that did not commit left {@code up_to} where it was, and whatever is unlisted at
 * open (after a crash, or a file whose indexes were still on the table) is indexed before the writer
 * takes its first write ({@link #catchUp()}).
 *
 * <p>Cost: a list read under heavy writes scans up to about {@value #TRIGGER_ROWS} rows of the table's
 * tail (plus one worker batch), and sorts its page; the writer pauses for a pass every
 * {@value #TRIGGER_ROWS} rows under load. Writer thread only: it uses the writer's connection between
 * batches, as {@code BackgroundCheckpoints.afterCommit} does.
 */
final class ListIndex {
    private static final System.Logger LOG = System.getLogger(ListIndex.class.getName());
    /** Unlisted rows after which a commit is followed by a pass: see the class comment. */
    static final int TRIGGER_ROWS = 8_192;
    /** Most rows one pass lists, so that catching up a large tail never holds one huge transaction. */
    static final int MOST_ROWS_PER_PASS = 65_536;

    /** The unlisted rows, which a page adds to its index's range. */
    private static final String UNLISTED_ROWS = "SELECT id FROM messages WHERE rowid > (SELECT up_to FROM listed)";
    /** Pages of one user's messages, newest first: the user, then {@code before} (if any), then the limit. */
    static final MessageReads.PageQueries PAGES = new MessageReads.PageQueries(
        page("inbox", "to_user", false), page("inbox", "to_user", true),
        page("outbox", "from_user", false), page("outbox", "from_user", true));

    static final String UNLISTED = "SELECT (SELECT coalesce(max(rowid), 0) FROM messages) - (SELECT up_to FROM listed)";
    static final String LIST_INBOX = list("inbox", "to_user");
    static final String LIST_OUTBOX = list("outbox", "from_user");
    /** Past the rows the two inserts above listed: they read the same bounds in the same transaction. */
    static final String ADVANCE = "UPDATE listed SET up_to = min(up_to + ?, (SELECT coalesce(max(rowid), 0) FROM messages))";

    private final Connection db;
    private final long triggerRows;
    private final int mostRowsPerPass;
    private PreparedStatement unlisted;
    private PreparedStatement listInbox;
    private PreparedStatement listOutbox;
    private PreparedStatement advance;
    /** Whether a commit may have left rows unlisted since the last catch-up. */
    private boolean behind = true;
    /** Whether the last try failed: a run of failures is logged once. */
    private boolean failing;

    /** On the writer's connection {@code db} (manual commit), with the default sizes. */
    ListIndex(Connection db) {
        this(db, TRIGGER_ROWS, MOST_ROWS_PER_PASS);
    }

    /** With other sizes: tests see passes after a few rows. */
    ListIndex(Connection db, long triggerRows, int mostRowsPerPass) {
        this.db = db;
        this.triggerRows = triggerRows;
        this.mostRowsPerPass = mostRowsPerPass;
    }

    /** The SQL of a page of {@code index}: its range, merged with the unlisted rows of the same user. */
    private static String page(String index, String column, boolean before) {
        String range = column + " = ?1" + (before ? " AND id < ?2" : "");
        String limit = before ? "?3" : "?2";
        return "SELECT id, from_user, to_user, body, created_at FROM messages WHERE id IN ("
            + "SELECT id FROM (SELECT id FROM " + index + " WHERE " + range + " ORDER BY id DESC LIMIT " + limit + ")"
            + " UNION ALL " + UNLISTED_ROWS + " AND " + range + ") ORDER BY id DESC LIMIT " + limit;
    }

    /** The insert that lists the next rows past {@code up_to} (at most the bound parameter) in {@code index}. */
    private static String list(String index, String column) {
        return "INSERT OR IGNORE INTO " + index + " (" + column + ", id) SELECT " + column + ", id FROM messages"
            + " WHERE rowid > (SELECT up_to FROM listed) AND rowid <= (SELECT up_to FROM listed) + ?"
            + " ORDER BY " + column + ", id";
    }

    /** Lists every unlisted row, a pass at a time; at open, before the writer takes writes. */
    void catchUp() throws SQLException {
        while (unlisted() > 0) {
            pass();
        }
        behind = false;
    }

    /** For {@code GroupCommitConfig.afterCommit}: a pass once {@link #TRIGGER_ROWS} rows are unlisted. */
    void afterCommit() {
        behind = true;
        try {
            if (unlisted() >= triggerRows) {
                pass();
            }
            failing = false;
        } catch (SQLException e) {
            logFailure(e);
        }
    }

    /** For {@code GroupCommitConfig.whenIdle}: lists whatever the commits since the last catch-up left. */
    void whenIdle() {
        if (!behind) {
            return;
        }
        try {
            catchUp();
            failing = false;
        } catch (SQLException e) {
            logFailure(e);
        }
    }

    /** Rows past {@code up_to}; ends the read transaction, so the writer's next batch starts afresh. */
    long unlisted() throws SQLException {
        if (unlisted == null) {
            unlisted = db.prepareStatement(UNLISTED);
        }
        try (ResultSet row = unlisted.executeQuery()) {
            row.next();
            return row.getLong(1);
        } finally {
            db.commit();
        }
    }

    /** Lists up to {@code mostRowsPerPass} rows past {@code up_to} and moves it past them, in one commit. */
    void pass() throws SQLException {
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
            throw e;
        }
    }

    private void logFailure(SQLException e) {
        if (!failing) { // once per run of failures, not after every commit
            LOG.log(System.Logger.Level.WARNING, "listing new messages failed; lists read them from the table meanwhile,"
                + " and the next commit or idle moment tries again: " + e.getMessage());
        }
        failing = true;
    }
}
