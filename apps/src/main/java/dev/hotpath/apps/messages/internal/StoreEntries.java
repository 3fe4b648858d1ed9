package dev.hotpath.apps.messages.internal;

import dev.hotpath.store.Transaction;
import dev.hotpath.store.Write;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One batch of stream entries as one group-commit write: each row inserted with the
 * {@link RowInserter} ({@code INSERT OR IGNORE}), so a batch stored again after a crash between commit
 * and acknowledgement changes nothing.
 *
 * <p>A row whose insert fails for a reason of its own (not a {@link StoreFaults store fault}) is noted
 * and skipped: SQLite undoes a failed statement alone and the transaction goes on, so the other rows
 * commit. A store fault is rethrown and fails the whole write: nothing of it is stored and
 * {@link #outcome()} completes exceptionally. {@link #apply} may run twice (the writer retries a
 * rolled-back batch write by write); the notes are reset each time.
 */
final class StoreEntries implements Write {
    /** One parsed entry: its stream id and the message it holds. */
    record Row(String entryId, Message message) {
    }

    private final List<Row> rows;
    private final RowInserter inserter;
    private final WriterObserver observer;
    private final Exception[] failures;
    private final CompletableFuture<Exception[]> outcome = new CompletableFuture<>();

    /** {@code observer} is the writer's, or null for a writer without one. */
    StoreEntries(List<Row> rows, RowInserter inserter, WriterObserver observer) {
        this.rows = rows;
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
            try {
                inserter.insert(transaction, rows.get(i).message());
            } catch (SQLException e) {
                if (StoreFaults.isStoreFault(e)) {
                    throw e;
                }
                failures[i] = e;
            } catch (RuntimeException e) {
                failures[i] = e;
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
}
