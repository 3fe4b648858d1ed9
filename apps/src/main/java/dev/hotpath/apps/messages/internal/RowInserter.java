package dev.hotpath.apps.messages.internal;

import dev.hotpath.store.Transaction;
import java.sql.SQLException;

/**
 * How the stream worker inserts one message inside its batch transaction: {@link #STORE} in production
 * (the store's own insert, which leaves a stored id as it is). A seam: tests put a fixture here that
 * fails some messages' inserts for a reason of their own, without breaking the store.
 */
@FunctionalInterface
public interface RowInserter {
    RowInserter STORE = MessageStore::insert;

    void insert(MessageStore store, Transaction transaction, Message message) throws SQLException;
}
