package dev.hotpath.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JDBC half of the {@code GroupCommitWriter}: runs one batch of writes in one transaction on the
 * write connection, and owns that connection and its prepared statements. Writer thread only.
 *
 * <p>The batch first runs without savepoints. If a write throws, the whole transaction is rolled back
 * and the batch is retried with a savepoint around each write, so the failing write is rolled back
 * alone and its neighbours commit. A failed commit fails every write of the batch. Rows the writes
 * added with {@link #addBatch} are sent just before the commit (in the retry: at the end of each
 * write, inside its savepoint).
 *
 * <p>With a {@link ConnectionSource} the connection is replaceable: after a failed batch it is checked
 * ({@link Connection#isValid}, a round trip, paid only after a failure), and a broken one is closed
 * and reopened before the next batch. A fixed connection (SQLite, a file that cannot go away) is never
 * checked nor replaced.
 *
 * <p>A rollback that fails leaves the connection in a state nobody knows: SQLite may already have
 * rolled back by itself (a full disk at commit), and sqlite-jdbc then never begins the next
 * transaction, so every later statement would commit on its own while its write is answered as
 * failed. Such a connection is never used again: a replaceable one is closed and reopened, a fixed one
 * fails every later batch at once (fail closed; the process must be restarted).
 */
final class BatchTransaction implements Transaction, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(BatchTransaction.class.getName());
    /** How long the check of a connection after a failed batch may wait for the server. */
    static final int VALIDITY_TIMEOUT_SECONDS = 2;

    /** Opens a replacement for a broken connection; null when the connection is fixed. */
    private final ConnectionSource source;
    /**
     * Whether a commit runs as {@code COMMIT} and {@code BEGIN} statements prepared once ({@link #commit()}):
     * on a fixed SQLite connection whose queries run natively.
     */
    private final boolean preparedCommits;
    private final TransactionListener listener;
    private final Map<String, PreparedStatement> statements = new HashMap<>();
    private final Map<String, RowQuery> queries = new HashMap<>();
    /** Rows added with {@link #addBatch} and not sent yet, per statement, in the order they were added. */
    private final Map<String, List<Row>> unsent = new LinkedHashMap<>();
    /** Null from a broken connection's close until the next batch opens one. */
    private Connection db;
    /** Why a fixed connection may no longer be used, once a rollback on it failed; else null. */
    private SQLException unusable;
    /**
     * Each run's outcomes, reused and grown to the largest batch: an array per commit was about an
     * eighth of what the writer's thread allocated (async-profiler, S4 at 3,000 req/s and saturated).
     */
    private Exception[] outcome = new Exception[16];

    /** On a fixed connection, never replaced. */
    BatchTransaction(Connection db, TransactionListener listener) {
        this.source = null;
        this.db = db;
        this.listener = listener;
        this.preparedCommits = runsNatively(db);
    }

    /** On connections from {@code source}, the first opened by the first batch. */
    BatchTransaction(ConnectionSource source, TransactionListener listener) {
        this.source = source;
        this.listener = listener;
        this.preparedCommits = false;
    }

    @Override
    public PreparedStatement statement(String sql) throws SQLException {
        PreparedStatement statement = statements.get(sql);
        if (statement == null) {
            statement = db.prepareStatement(sql);
            statements.put(sql, statement);
        }
        return statement;
    }

    @Override
    public RowQuery query(String sql) throws SQLException {
        if (source != null) {
            throw new SQLException("a RowQuery runs on a SQLite writer, not on a replaceable (PostgreSQL) connection");
        }
        RowQuery query = queries.get(sql);
        if (query == null) {
            query = RowQuery.prepare(db, sql);
            queries.put(sql, query);
        }
        return query;
    }

    @Override
    public BatchedRow addBatch(String sql) throws SQLException {
        statement(sql).addBatch();
        Row row = new Row();
        unsent.computeIfAbsent(sql, key -> new ArrayList<>()).add(row);
        return row;
    }

    /** A batched row; its count is set when its statement's batch is sent. */
    private static final class Row implements BatchedRow {
        private int updateCount = -1;

        @Override
        public int updateCount() {
            return updateCount;
        }
    }

    /** Sends every statement's batched rows and gives each row its update count. */
    private void sendBatches() throws SQLException {
        if (unsent.isEmpty()) {
            return; // as for every SQLite write: no iterator made per write and batch
        }
        try {
            for (Map.Entry<String, List<Row>> batch : unsent.entrySet()) {
                int[] counts = statements.get(batch.getKey()).executeBatch();
                List<Row> rows = batch.getValue();
                for (int i = 0; i < rows.size(); i++) {
                    rows.get(i).updateCount = counts[i];
                }
            }
        } finally {
            discardBatches();
        }
    }

    /** Forgets rows not sent (their write was rolled back): the next batch starts empty. */
    private void discardBatches() {
        if (unsent.isEmpty()) {
            return;
        }
        for (String sql : unsent.keySet()) {
            try {
                statements.get(sql).clearBatch();
            } catch (SQLException e) {
                LOG.log(System.Logger.Level.WARNING, "clearing a statement's batch failed", e);
            }
        }
        unsent.clear();
    }

    /**
     * Applies and commits {@code batch}; the outcome of each write, in batch order: null when it is
     * committed, else the exception that failed it. The array is this transaction's, reused by the next
     * run, and may be longer than the batch: read its first {@code batch.size()} entries before then.
     */
    Exception[] run(List<Write> batch) {
        if (outcome.length < batch.size()) {
            outcome = new Exception[Math.max(batch.size(), outcome.length * 2)];
        } else {
            Arrays.fill(outcome, 0, batch.size(), null);
        }
        if (unusable != null) {
            Arrays.fill(outcome, 0, batch.size(), unusable);
            return outcome;
        }
        if (db == null) {
            try {
                db = source.open();
            } catch (SQLException | RuntimeException e) {
                Arrays.fill(outcome, 0, batch.size(), e); // the server is still away: fail fast, try again next batch
                return outcome;
            }
        }
        listener.begun();
        try {
            if (!applyAll(batch)) {
                applyEachIsolated(batch);
            }
            commit();
        } catch (SQLException | RuntimeException e) {
            Arrays.fill(outcome, 0, batch.size(), e);
            if (rolledBack()) {
                dropIfBroken();
            } else {
                retire();
            }
        }
        return outcome;
    }

    /**
     * Commits and begins the next transaction, as sqlite-jdbc's {@link Connection#commit} does (a deferred
     * {@code BEGIN}, its default), but through two statements prepared once where the connection allows
     * ({@link #preparedCommits}). The driver prepares, runs and finalizes {@code commit;} and {@code begin;}
     * at every commit, each with its SQL encoded anew: under S4 saturated, a fifth of what the event loop
     * and the writer allocated (async-profiler, docs/BENCHMARKS.md). A failure is the same either way:
     * a {@code COMMIT} that fails throws before the {@code BEGIN}, and the rollback that follows is the
     * driver's.
     */
    private void commit() throws SQLException {
        if (!preparedCommits) {
            db.commit();
            return;
        }
        query("COMMIT").execute();
        query("BEGIN").execute();
    }

    /** Whether {@code db}'s queries run natively; false for a connection that cannot tell (closed), whose commits then fail in the driver. */
    private static boolean runsNatively(Connection db) {
        try {
            return NativeRowQuery.suits(db);
        } catch (SQLException e) {
            return false;
        }
    }

    /** After a failed rollback: a replaceable connection is closed for the next batch to reopen; a fixed one is retired. */
    private void retire() {
        if (source == null) {
            unusable = new SQLException("the write connection is unusable since a rollback on it failed: restart"
                + " the server (the cause was logged)");
        }
        close();
    }

    /** After a failed batch: closes a replaceable connection that no longer answers, for the next batch to reopen. */
    private void dropIfBroken() {
        if (source == null) {
            return;
        }
        try {
            if (db.isValid(VALIDITY_TIMEOUT_SECONDS)) {
                return;
            }
        } catch (SQLException e) {
            LOG.log(System.Logger.Level.WARNING, "checking the write connection failed", e);
        }
        LOG.log(System.Logger.Level.WARNING, "the write connection broke; the next batch opens a new one");
        close();
    }

    /** The fast path: every write in the transaction, no savepoints. False (rolled back) if one threw. */
    private boolean applyAll(List<Write> batch) throws SQLException {
        try {
            for (int i = 0; i < batch.size(); i++) { // an index, not an iterator: nothing made per batch
                batch.get(i).apply(this);
            }
            sendBatches();
            return true;
        } catch (SQLException | RuntimeException e) {
            discardBatches();
            db.rollback();
            listener.rolledBack();
            listener.begun();
            return false;
        }
    }

    /** The retry: each write in its own savepoint, so a failing one rolls back alone. */
    private void applyEachIsolated(List<Write> batch) throws SQLException {
        for (int i = 0; i < batch.size(); i++) {
            Savepoint savepoint = db.setSavepoint();
            try {
                batch.get(i).apply(this);
                sendBatches();
                db.releaseSavepoint(savepoint);
            } catch (SQLException | RuntimeException e) {
                discardBatches();
                db.rollback(savepoint);
                db.releaseSavepoint(savepoint);
                outcome[i] = e;
            }
        }
    }

    /** Rolls the batch back, in memory and in the database; false when the database's rollback failed. */
    private boolean rolledBack() {
        listener.rolledBack();
        try {
            db.rollback();
            return true;
        } catch (SQLException | RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "rollback after a failed batch failed; the write connection is retired", e);
            return false;
        }
    }

    /** Closes every prepared statement and query, then the connection, if one is open. */
    @Override
    public void close() {
        if (db == null) {
            return;
        }
        List<AutoCloseable> prepared = new ArrayList<>(queries.values());
        prepared.addAll(statements.values());
        for (AutoCloseable statement : prepared) {
            try {
                statement.close();
            } catch (Exception e) {
                LOG.log(System.Logger.Level.WARNING, "closing a prepared statement failed", e);
            }
        }
        statements.clear();
        queries.clear();
        unsent.clear();
        try {
            db.close();
        } catch (SQLException e) {
            LOG.log(System.Logger.Level.WARNING, "closing the write connection failed", e);
        } finally {
            db = null;
        }
    }
}
