package dev.hotpath.store;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * One request's write, run by the {@link GroupCommitWriter} inside a batch transaction. The writer
 * calls exactly one of {@link #committed()} or {@link #failed(Exception)}, on its own thread, after the
 * batch's commit (or its failure): publish to memory and acknowledge there, never in {@link #apply}.
 */
public interface Write {
    /**
     * Applies the write to the database, inside the batch transaction and its own savepoint: a
     * {@link SQLException} here rolls back this write only, and the writer reports it through
     * {@link #failed(Exception)} while the rest of the batch commits. {@code db} is null in
     * {@link Durability#NONE}.
     */
    void apply(Connection db) throws SQLException;

    /** The write is durable (per the mode): publish it, then answer the request. */
    void committed();

    /** The write is not stored: {@code cause} is its own failure or the failure of the commit. */
    void failed(Exception cause);
}
