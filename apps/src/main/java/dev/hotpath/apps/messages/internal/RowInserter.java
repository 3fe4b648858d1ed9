package dev.hotpath.apps.messages.internal;

import dev.hotpath.store.Transaction;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * How the stream worker inserts one message inside its batch transaction: {@link #SQL} in production
 * ({@code INSERT OR IGNORE}, so a message stored before is left as it is). A seam: tests put a fixture
 * here that fails some messages' inserts for a reason of their own, without breaking SQLite.
 */
@FunctionalInterface
public interface RowInserter {
    RowInserter SQL = (transaction, message) -> {
        PreparedStatement insert = transaction.statement(StoreMessage.INSERT);
        insert.setBytes(1, message.id().bytes());
        insert.setString(2, message.from());
        insert.setString(3, message.to());
        insert.setString(4, message.message());
        insert.setString(5, message.createdAt());
        insert.executeUpdate();
    };

    void insert(Transaction transaction, Message message) throws SQLException;
}
