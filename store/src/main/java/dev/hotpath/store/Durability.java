package dev.hotpath.store;

/**
 * What an acknowledged write survives. The SQLite database runs in WAL mode in both durable modes; the
 * difference is when the log is fsynced.
 *
 * <table>
 * <caption>Durability modes</caption>
 * <tr><th>mode</th><th>SQLite</th><th>survives</th></tr>
 * <tr><td>{@link #FULL}</td><td>WAL, {@code synchronous=FULL}: fsync at every commit</td>
 *     <td>{@code kill -9} and power loss</td></tr>
 * <tr><td>{@link #NORMAL}</td><td>WAL, {@code synchronous=NORMAL}: fsync at checkpoints</td>
 *     <td>{@code kill -9}, not power loss</td></tr>
 * <tr><td>{@link #NONE}</td><td>an in-memory database, no file</td><td>nothing: for benchmarks only</td></tr>
 * </table>
 *
 * <p>{@link #NONE} runs the same statements as the durable modes (so writes take the same path through
 * the {@link GroupCommitWriter}), minus the file I/O and fsyncs; the cost is the database's pages in
 * the heap of the process, beside whatever the app keeps in memory itself.
 */
public enum Durability {
    FULL, NORMAL, NONE;

    /** Whether writes reach a file. */
    public boolean persistent() {
        return this != NONE;
    }
}
