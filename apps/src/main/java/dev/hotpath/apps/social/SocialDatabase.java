package dev.hotpath.apps.social;

import dev.hotpath.store.Write;

/**
 * Where the social API reads and writes, on SQLite: {@link SeparateConnections} (a read connection
 * per event loop beside the group-commit writer's thread) or {@link LoopConnection} (one connection on
 * the server's only event loop).
 */
interface SocialDatabase extends AutoCloseable {
    /** The reads of the calling event loop. */
    PostReads reads();

    /**
     * Queues a write made by a request on the calling event loop; its {@link Write#committed()} or
     * {@link Write#failed} follows once its commit is done. False when too many are queued (answer 503).
     */
    boolean offer(Write write);

    /** Commits what is queued and closes every connection. */
    @Override
    void close();
}
