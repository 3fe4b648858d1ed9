package dev.hotpath.apps.messages.internal;

import dev.hotpath.store.Transaction;
import dev.hotpath.store.Write;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One batch of stream entries as one group-commit write: each row inserted with the
 * {@link RowInserter} (the store's insert, which skips a stored id), so a batch stored again after a
 * crash between commit and acknowledgement changes nothing.
 *
 * <p>A row whose insert fails for a reason of its own (not a {@link MessageStore#isStoreFault store
 * fault}) is noted and skipped, and the other rows commit. SQLite undoes a failed statement alone, so
 * the transaction just goes on. PostgreSQL aborts the whole transaction instead; there the first such
 * failure is thrown as {@link RowsNeedSavepoints}, the writer rolls back and applies this write again
 * (write by write, see {@code GroupCommitWriter}), and this time each row runs in a savepoint of its own:
 * two more statements a row, paid only by a batch that holds a failing row. A store fault is rethrown
 * and fails the whole write: nothing of it is stored and {@link #outcome()} completes exceptionally.
 * {@link #apply} may run twice; the notes are reset each time.
 */
final class StoreEntries implements Write {
    private static final String SAVEPOINT = "SAVEPOINT messages_row";
    private static final String ROLLBACK_TO_SAVEPOINT = "ROLLBACK TO SAVEPOINT messages_row";
    private static final String RELEASE_SAVEPOINT = "RELEASE SAVEPOINT messages_row";

    /** One parsed entry: its stream id and the message it holds. */
    record Row(String entryId, Message message) {
    }

    private final List<Row> rows;
    private final MessageStore store;
    private final RowInserter inserter;
    private final WriterObserver observer;
    private final Exception[] failures;
    private final CompletableFuture<Exception[]> outcome = new CompletableFuture<>();
    /** Set once a row's own failure aborted the transaction: every later apply isolates each row. */
    private boolean savepoints;

    /** {@code observer} is the writer's, or null for a writer without one. */
    StoreEntries(List<Row> rows, MessageStore store, RowInserter inserter, WriterObserver observer) {
        this.rows = rows;
        this.store = store;
        this.inserter = inserter;
        this.observer = observer;
        this.failures = new Exception[rows.size()];
    }

    List<Row> rows() {
        return rows;
    }

    /**
     * After the commit, each row's own failure (null where it is stored); completed exceptionally with
     * the store's failure when nothing was stored.
     */
    CompletableFuture<Exception[]> outcome() {
        return outcome;
    }

    @Override
    public void apply(Transaction transaction) throws SQLException {
        Arrays.fill(failures, null);
        for (int i = 0; i < rows.size(); i++) {
            if (savepoints) {
                transaction.statement(SAVEPOINT).execute();
            }
            try {
                inserter.insert(store, transaction, rows.get(i).message());
            } catch (SQLException e) {
                if (store.isStoreFault(e)) {
                    throw e;
                }
                failures[i] = e;
            } catch (RuntimeException e) {
                failures[i] = e;
            }
            if (!savepoints && failures[i] != null && store.failedStatementAbortsTransaction()) {
                savepoints = true;
                throw new RowsNeedSavepoints(failures[i]);
            }
            if (savepoints) {
                transaction.statement(failures[i] == null ? RELEASE_SAVEPOINT : ROLLBACK_TO_SAVEPOINT).execute();
            }
        }
    }

    @Override
    public void committed() {
        if (observer != null) {
            observer.acknowledging(rows.size());
        }
        outcome.complete(failures.clone());
    }

    @Override
    public void failed(Exception cause) {
        if (observer != null) {
            observer.acknowledging(rows.size());
        }
        outcome.completeExceptionally(cause);
    }

    /** A row failed and aborted the store's transaction: apply the batch again, a savepoint a row. */
    static final class RowsNeedSavepoints extends SQLException {
        RowsNeedSavepoints(Exception row) {
            super("a row failed and aborted the transaction; applying again with a savepoint per row", row);
        }
    }
}
