package dev.hotpath.bench.peers;

import java.util.List;

/**
 * Where a peer keeps its users. Ids come from a counter, {@link User#PRELOADED} + 1 onwards; every
 * method may be called from many threads at once. A SQLite store blocks on disk: a peer on an event
 * loop calls it from a worker ({@link #blocking()}).
 */
interface UserStore extends AutoCloseable {
    /** The user with this id, or {@code null}. */
    User find(long id);

    /** Up to {@code limit} users with ids above {@code after}, in ascending id order. */
    List<User> page(long after, int limit);

    /** Stores a new user under the next id; it is durable (for a durable store) when this returns. */
    User create(String name, String email, String createdAt);

    /** Whether calls wait on I/O, so an event-loop framework must not make them on its loop. */
    boolean blocking();

    @Override
    void close();
}
