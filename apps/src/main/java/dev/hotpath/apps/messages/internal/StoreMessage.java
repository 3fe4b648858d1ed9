package dev.hotpath.apps.messages.internal;

import dev.hotpath.http.Deferred;
import dev.hotpath.http.JsonBytes;
import dev.hotpath.store.Transaction;
import dev.hotpath.store.Write;
import java.sql.SQLException;

/**
 * One message's insert, run by the group-commit writer and answered after the commit that holds it:
 * {@code 201} with the message, or {@code 503 store_unavailable} when it is not stored.
 *
 * <p>The store's insert leaves a stored id as it is. Ids made here never repeat; the rule is for the
 * stream worker ({@link StoreEntries}), which may insert a message again after a crash between its
 * insert and its acknowledgement to the stream. SQLite's {@code OR IGNORE} would skip a row that breaks
 * a constraint as well, and this write would still answer 201: the rule a caller keeps is to build the
 * {@link Message} from a checked {@link NewMessage} and a made id, as the service does.
 */
final class StoreMessage implements Write {
    private final MessageStore store;
    private final Message message;
    private final Deferred response;
    private final WriterObserver observer;
    private final MessagesMetrics metrics;

    StoreMessage(MessageStore store, Message message, Deferred response, WriterObserver observer,
                 MessagesMetrics metrics) {
        this.store = store;
        this.message = message;
        this.response = response;
        this.observer = observer;
        this.metrics = metrics;
    }

    @Override
    public void apply(Transaction transaction) throws SQLException {
        store.insertBatched(transaction, message);
    }

    @Override
    public void committed() {
        observer.acknowledging();
        metrics.stored();
        response.complete(JsonBytes.response(201, message::writeTo));
    }

    @Override
    public void failed(Exception cause) {
        observer.acknowledging();
        response.complete(metrics.refused(Refusal.STORE_UNAVAILABLE).response());
    }
}
