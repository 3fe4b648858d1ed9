package dev.hotpath.apps.shortener.internal;

import dev.hotpath.store.Transaction;
import dev.hotpath.store.Write;
import java.security.SecureRandom;
import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The {@link Write}s of the scale-out mode, run by its group-commit writer on one PostgreSQL
 * connection: insert links, mark one deleted, log and fold visit counts. Each tells its outcome after the
 * commit, on the writer thread.
 *
 * <p>Ids come from {@link IdBlocks}; a write keeps the ids it took, so a retry of its batch stores the
 * same rows. Inserts are batched rows ({@link Transaction#addBatch}): a batch of creates costs one
 * round trip to PostgreSQL, not one per link. Names are unique by the table's constraint: an insert whose name is taken stores nothing
 * ({@code ON CONFLICT DO NOTHING}) and reports id -1, without failing its neighbours, so two write
 * nodes can never both accept one alias.
 */
final class PostgresLinkWrites {
    private static final System.Logger LOG = System.getLogger(PostgresLinkWrites.class.getName());
    private static final String INSERT = "INSERT INTO links (id, name, protected, long_url, created_at, expires_at)"
        + " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING";
    private static final String RETURNING = " RETURNING id, name, protected, long_url, created_at, expires_at,"
        + " deleted_at, visits";
    private static final String DELETE_BY_ID = "UPDATE links SET deleted_at = ? WHERE id = ? AND name IS NULL"
        + " AND deleted_at IS NULL" + RETURNING;
    private static final String DELETE_BY_NAME = "UPDATE links SET deleted_at = ? WHERE name = ?"
        + " AND deleted_at IS NULL" + RETURNING;
    private static final String EXISTS_BY_ID = "SELECT 1 FROM links WHERE id = ? AND name IS NULL";
    private static final String EXISTS_BY_NAME = "SELECT 1 FROM links WHERE name = ?";
    /**
     * A flush appends one row: what the node counted, ids ascending. It replaced adding to every visited
     * link's row each second: under 16-deep redirects of 10,000 links PostgreSQL's CPU went from 46 to
     * 25 ms a second (on the core the load generator shares with it) and the node's redirects 1.10×
     * (docs/BENCHMARKS.md). The row goes in only if the flush's sequence number is above the node's
     * last one in {@code visit_flushes}: a flush sent again after its commit answer was lost stores
     * nothing the second time.
     */
    private static final String LOG_VISITS = """
        WITH flushed AS (
          INSERT INTO visit_flushes AS last (node, seq, at) VALUES (?, ?, ?)
          ON CONFLICT (node) DO UPDATE SET seq = excluded.seq, at = excluded.at WHERE last.seq < excluded.seq
          RETURNING 1)
        INSERT INTO visit_log (ids, counts) SELECT ?::bigint[], ?::bigint[] FROM flushed""";
    /** A node silent this long has no flush left to send again: its row goes. */
    private static final long FORGET_NODES_AFTER_MILLIS = TimeUnit.DAYS.toMillis(7);
    private static final String FORGET_SILENT_NODES = "DELETE FROM visit_flushes WHERE at < ?";
    /**
     * A fold takes the logged rows no other fold holds ({@code SKIP LOCKED}: two nodes folding at once
     * take disjoint rows and never count one twice), deletes them and adds them up per link: one row
     * of two arrays, ids ascending (nulls when nothing was logged), which go back as they are as the
     * parameters of {@link #ADD_VISITS}. Deleting the rows and adding to the links commit together, so
     * a failed fold leaves its rows for the next one.
     */
    private static final String TAKE_LOGGED_VISITS = """
        WITH taken AS (
          DELETE FROM visit_log WHERE seq IN (SELECT seq FROM visit_log FOR UPDATE SKIP LOCKED)
          RETURNING ids, counts),
        counted AS (
          SELECT c.id, sum(c.n)::bigint AS n FROM taken, unnest(taken.ids, taken.counts) AS c(id, n) GROUP BY c.id)
        SELECT array_agg(id ORDER BY id), array_agg(n ORDER BY id) FROM counted""";
    /**
     * Every link's increment in one statement, two arrays: as a JDBC batch, 10,000 increments cost
     * PostgreSQL 10,000 executions, a tenth of a core at 100,000 redirects a second. The ids come sorted, and PostgreSQL walks a parameter array in order (a
     * nested loop over the primary key), so every node locks its rows in id order and two folds do not
     * deadlock. Locking them first with {@code SELECT ... ORDER BY id FOR UPDATE} would guarantee the
     * order whatever the plan, but it logged every row lock and cost 1.8 times as much;
     * {@link #BOUNDED_LOCK_WAIT} covers the plans that do not walk in order instead.
     */
    private static final String ADD_VISITS = """
        UPDATE links SET visits = links.visits + counted.n
          FROM unnest(?::bigint[], ?::bigint[]) AS counted(id, n) WHERE links.id = counted.id""";
    /**
     * A fold waits at most this long for a row another transaction holds (another node's fold, or a
     * delete), then fails and its rows wait for the next one: a deadlock between two nodes' batches
     * costs 100 ms (twice that when the batch is retried write by write), not the second that
     * PostgreSQL waits before it looks for one, and the writer's other writes do not queue behind it.
     */
    private static final String BOUNDED_LOCK_WAIT = "SET LOCAL lock_timeout = '100ms'";
    /**
     * Set back once the fold is done: the batch's other writes (an alias that another node is
     * creating, say) wait as long as they need. A failed fold needs no reset: rolling it back, alone
     * or with its batch, rolls the setting back too.
     */
    private static final String UNBOUNDED_LOCK_WAIT = "SET LOCAL lock_timeout TO DEFAULT";

    private final IdBlocks ids;
    private final VisitCounts visits;
    private final Clock clock;
    /** This node in {@code visit_flushes}: drawn at start, so a restarted node starts its sequence anew. */
    private final long node = new SecureRandom().nextLong();
    /** The sequence number of this node's latest flush; writer thread only. */
    private long lastFlush;
    /**
     * Flushes whose commit failed or whose answer was lost, oldest first: each is sent again as it is
     * (same number, same counts) before any new counts are drained. Writer thread only.
     */
    private final List<Flush> unsent = new ArrayList<>();
    /** Whether {@code unsent} holds any, for the threads that decide whether to flush. */
    private volatile boolean anyUnsent;

    PostgresLinkWrites(IdBlocks ids, VisitCounts visits, Clock clock) {
        this.ids = ids;
        this.visits = visits;
        this.clock = clock;
    }

    /** One flush of this node's visit counts, numbered. */
    private record Flush(long seq, VisitCounts.Drained counts) {
    }

    /** Whether a flush waits to be sent again: then the next flush is due even without new visits. */
    boolean hasUnsentVisits() {
        return anyUnsent;
    }

    /** How a delete ended. */
    enum Deletion { DELETED, ALREADY_GONE, NOT_FOUND }

    /** What a delete reports: how it ended and, when it deleted, the row as it is now. */
    record Deleted(Deletion outcome, LinkRow row) {
    }

    /** {@code outcome} gets each link's id, or -1 where its name was taken. */
    Write insert(List<NewLink> links, LinkStore.Outcome<long[]> outcome) {
        return new InsertLinks(links, outcome);
    }

    /** Marks the link {@code key} names ({@link LinkKeys#keyOf}) deleted at {@code deletedAt}. */
    Write delete(Object key, long deletedAt, LinkStore.Outcome<Deleted> outcome) {
        return new DeleteLink(key, deletedAt, outcome);
    }

    /**
     * Appends the visits counted since the last flush to the log, then runs {@code then} (also when it
     * failed: a failed flush is sent again, as it is, by the next one).
     */
    Write logVisits(Runnable then) {
        return new LogVisits(then, false);
    }

    /**
     * The node's last flush, as it stops: the unsent flushes and the counts since, in one transaction,
     * since no later flush will send what this one leaves.
     */
    Write logLastVisits() {
        return new LogVisits(() -> { }, true);
    }

    /**
     * Moves the logged visits of every node into {@code links.visits}, then runs {@code then} (also when
     * it failed: the rows stay logged for the next fold).
     */
    Write foldVisits(Runnable then) {
        return new FoldVisits(then);
    }

    private final class InsertLinks implements Write {
        private final List<NewLink> links;
        private final LinkStore.Outcome<long[]> outcome;
        /** The ids taken for the links, on the first try; a retry stores the same ids. */
        private long[] taken;
        private Transaction.BatchedRow[] rows;

        InsertLinks(List<NewLink> links, LinkStore.Outcome<long[]> outcome) {
            this.links = links;
            this.outcome = outcome;
        }

        @Override
        public void apply(Transaction transaction) throws SQLException {
            if (taken == null) { // assigned only when complete: a retry must not insert unfilled ids
                long[] fresh = new long[links.size()];
                for (int i = 0; i < fresh.length; i++) {
                    fresh[i] = ids.take(transaction);
                }
                taken = fresh;
            }
            PreparedStatement insert = transaction.statement(INSERT);
            rows = new Transaction.BatchedRow[links.size()];
            for (int i = 0; i < links.size(); i++) {
                NewLink link = links.get(i);
                insert.setLong(1, taken[i]);
                insert.setString(2, link.name());
                insert.setBoolean(3, link.isProtected());
                insert.setString(4, link.url());
                insert.setLong(5, link.createdAt());
                if (link.expiresAt() < 0) {
                    insert.setNull(6, Types.BIGINT);
                } else {
                    insert.setLong(6, link.expiresAt());
                }
                rows[i] = transaction.addBatch(INSERT); // sent with the whole batch's rows, one round trip
            }
        }

        @Override
        public void committed() {
            long[] stored = new long[taken.length];
            for (int i = 0; i < stored.length; i++) {
                stored[i] = rows[i].updateCount() == 0 ? -1 : taken[i]; // 0: the name was taken
            }
            outcome.stored(stored);
        }

        @Override
        public void failed(Exception cause) {
            LOG.log(System.Logger.Level.DEBUG, "create failed", cause); // the writer logs a broken connection once
            outcome.failed();
        }
    }

    private static final class DeleteLink implements Write {
        private final Object key;
        private final long deletedAt;
        private final LinkStore.Outcome<Deleted> outcome;
        private Deleted result;

        DeleteLink(Object key, long deletedAt, LinkStore.Outcome<Deleted> outcome) {
            this.key = key;
            this.deletedAt = deletedAt;
            this.outcome = outcome;
        }

        @Override
        public void apply(Transaction transaction) throws SQLException {
            boolean byId = key instanceof Long;
            PreparedStatement update = transaction.statement(byId ? DELETE_BY_ID : DELETE_BY_NAME);
            update.setLong(1, deletedAt);
            setKey(update, 2);
            try (ResultSet rows = update.executeQuery()) {
                if (rows.next()) {
                    result = new Deleted(Deletion.DELETED, PostgresLinks.row(rows));
                    return;
                }
            }
            PreparedStatement exists = transaction.statement(byId ? EXISTS_BY_ID : EXISTS_BY_NAME);
            setKey(exists, 1);
            try (ResultSet rows = exists.executeQuery()) {
                result = new Deleted(rows.next() ? Deletion.ALREADY_GONE : Deletion.NOT_FOUND, null);
            }
        }

        private void setKey(PreparedStatement statement, int index) throws SQLException {
            if (key instanceof Long id) {
                statement.setLong(index, id);
            } else {
                statement.setString(index, (String) key);
            }
        }

        @Override
        public void committed() {
            outcome.stored(result);
        }

        @Override
        public void failed(Exception cause) {
            LOG.log(System.Logger.Level.DEBUG, "delete failed", cause);
            outcome.failed();
        }
    }

    private final class LogVisits implements Write {
        private final Runnable then;
        private final boolean last;
        /**
         * Taken at the first apply: the unsent flushes when there are any, else one of the new counts;
         * the last flush takes both.
         */
        private List<Flush> flushes;

        LogVisits(Runnable then, boolean last) {
            this.then = then;
            this.last = last;
        }

        @Override
        public void apply(Transaction transaction) throws SQLException {
            if (flushes == null) {
                flushes = unsent.isEmpty() ? drainNew()
                    : last ? Stream.concat(unsent.stream(), drainNew().stream()).toList() : List.copyOf(unsent);
            }
            for (Flush flush : flushes) {
                PreparedStatement insert = transaction.statement(LOG_VISITS);
                insert.setLong(1, node);
                insert.setLong(2, flush.seq());
                insert.setLong(3, clock.millis());
                insert.setObject(4, flush.counts().ids());
                insert.setObject(5, flush.counts().counts());
                insert.executeUpdate();
            }
        }

        /**
         * New counts wait in {@link VisitCounts} (one number per link) while a flush is unsent, so what
         * waits through an outage is bounded by the links visited, not by the seconds it lasts.
         */
        private List<Flush> drainNew() {
            VisitCounts.Drained drained = visits.drain();
            return drained.isEmpty() ? List.of() : List.of(new Flush(++lastFlush, drained));
        }

        @Override
        public void committed() {
            unsent.removeAll(flushes);
            anyUnsent = !unsent.isEmpty();
            then.run();
        }

        @Override
        public void failed(Exception cause) {
            LOG.log(System.Logger.Level.WARNING, last ? "visit counts not stored as the node stops: they are lost"
                : "visit counts not stored; the next flush sends them again", cause);
            if (flushes != null) {
                for (Flush flush : flushes) {
                    if (!unsent.contains(flush)) {
                        unsent.add(flush);
                    }
                }
                anyUnsent = !unsent.isEmpty();
            }
            then.run();
        }
    }

    private final class FoldVisits implements Write {
        private final Runnable then;

        FoldVisits(Runnable then) {
            this.then = then;
        }

        @Override
        public void apply(Transaction transaction) throws SQLException {
            transaction.statement(BOUNDED_LOCK_WAIT).execute();
            try (ResultSet taken = transaction.statement(TAKE_LOGGED_VISITS).executeQuery()) {
                taken.next();
                Array ids = taken.getArray(1);
                if (ids != null) {
                    PreparedStatement update = transaction.statement(ADD_VISITS);
                    update.setArray(1, ids);
                    update.setArray(2, taken.getArray(2));
                    update.executeUpdate();
                }
            }
            transaction.statement(UNBOUNDED_LOCK_WAIT).execute();
            PreparedStatement forget = transaction.statement(FORGET_SILENT_NODES);
            forget.setLong(1, clock.millis() - FORGET_NODES_AFTER_MILLIS);
            forget.executeUpdate();
        }

        @Override
        public void committed() {
            then.run();
        }

        @Override
        public void failed(Exception cause) {
            LOG.log(System.Logger.Level.WARNING, "logged visits not folded; the next fold takes them", cause);
            then.run();
        }
    }
}
