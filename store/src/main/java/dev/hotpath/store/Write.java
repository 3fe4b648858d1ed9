package dev.hotpath.store;

import java.sql.SQLException;

/**
 * One request's write, run by the {@link GroupCommitWriter} inside a batch transaction. The writer
 * calls exactly one of {@link #committed()} or {@link #failed(Exception)}, on its own thread, after the
 * batch's commit (or its failure): publish to memory and acknowledge there, never in {@link #apply}.
 */
public interface Write {
    /**
     * Applies the write inside the batch transaction and, when the batch is retried, its own savepoint:
     * a {@link SQLException} (or runtime exception) here rolls back this write only, and the writer
     * reports it through {@link #failed(Exception)} while the rest of the batch commits. May run twice
     * (the batch's first try was rolled back): it must write the same rows the second time.
     */
    void apply(Transaction transaction) throws SQLException;

    /** The write is durable (per the mode): publish it, then answer the request. */
    void committed();

    /** The write is not stored: {@code cause} is its own failure or the failure of the commit. */
    void failed(Exception cause);
}
