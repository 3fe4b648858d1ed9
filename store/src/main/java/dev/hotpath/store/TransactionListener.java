package dev.hotpath.store;

/**
 * Told, on the writer thread, where each batch transaction begins and when one is rolled back whole.
 * State that writes keep on the writer thread across a batch (such as the next id to hand out) must
 * go back with a rollback: remember it in {@link #begun()}, restore it in {@link #rolledBack()}.
 */
public interface TransactionListener {
    /** For writers whose writes keep no state across a batch. */
    TransactionListener NONE = new TransactionListener() {
        @Override
        public void begun() {
        }

        @Override
        public void rolledBack() {
        }
    };

    /** A batch transaction begins (also when a batch is retried write by write). */
    void begun();

    /** The transaction begun last was rolled back as a whole: nothing of it is stored. */
    void rolledBack();
}
