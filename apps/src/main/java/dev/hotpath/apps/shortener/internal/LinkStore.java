package dev.hotpath.apps.shortener.internal;

import dev.hotpath.store.GroupCommitWriter;
import java.util.List;

/**
 * Where the shortener's links are kept: the HTTP side ({@code ShortenerService}, {@code LinkReads},
 * {@code LinkWrites}) knows only this interface, so another engine can replace {@code SqliteLinkStore}.
 *
 * <p>Reads never reach the store: every link lives in {@link #table()}, loaded at open. A write is
 * queued, stored, then published to the table, and only then is its {@link Outcome} told: the rule an
 * implementation keeps is store, then publish, then answer, with ids handed out contiguously in the
 * order writes are stored and table changes made by one thread at a time.
 */
public interface LinkStore extends AutoCloseable {
    /** Every link stored, in memory; what the event loops read. */
    LinkTable table();

    /** The secret scrambled codes derive from, created with the store and kept with it. */
    byte[] codeSecret();

    /**
     * Queues storing {@code links} together: all of them, or none. On success they are published with
     * the next ids, in order, and {@code outcome} gets those ids.
     *
     * @return false when the store cannot take more writes now (nothing happens; answer 503)
     */
    boolean create(List<NewLink> links, Outcome<int[]> outcome);

    /**
     * Queues marking link {@code id} deleted at {@code deletedAt} (epoch millis); {@code outcome} gets
     * true, or false when another delete of the link was stored first.
     *
     * @return false when the store cannot take more writes now
     */
    boolean delete(int id, long deletedAt, Outcome<Boolean> outcome);

    /** Queues storing the visit counts that changed since the last flush; a failed flush is retried by the next. */
    void flushVisits();

    /** The counters of the store's writer, for metrics. */
    GroupCommitWriter.Stats writerStats();

    /** Stores everything queued, then releases the store. */
    @Override
    void close();

    /** Told once, on the store's writer thread, how a queued write ended. */
    interface Outcome<T> {
        void stored(T result);

        /** Nothing of the write is stored (the cause is logged by the store). */
        void failed();
    }
}
