package dev.hotpath.apps.shortener.internal;

import java.util.concurrent.CompletableFuture;

/**
 * The highest link id any write node may have handed out, so that a generated code above it is
 * answered 404 without a look-up. It must never hide a link that exists: an id above the bound this
 * node holds is refused only after a fresh read of the {@code link_ids} sequence that began after the
 * request arrived ({@link #refreshed}). A link acknowledged before that is in a block the read sees.
 *
 * <p>Refreshes are shared: one reads the sequence at a time, and every request arriving meanwhile
 * waits for the one after it, so a flood of random codes costs PostgreSQL one tiny read per round
 * trip, not one per request.
 */
final class IdBound {
    private final PostgresLinks links;
    private final LookupExecutor executor;
    private volatile long highest;
    /** The read under way, and the one that starts after it; guarded by {@code this}. */
    private CompletableFuture<Long> running;
    private CompletableFuture<Long> next;

    IdBound(PostgresLinks links, LookupExecutor executor, long highest) {
        this.links = links;
        this.executor = executor;
        this.highest = highest;
    }

    /** Whether {@code id} is known to be allocated. */
    boolean covers(long id) {
        return id <= highest;
    }

    /** This node took the block ending at {@code blockEnd} itself. */
    void atLeast(long blockEnd) {
        synchronized (this) {
            highest = Math.max(highest, blockEnd);
        }
    }

    /** The bound after a read of the sequence that begins after this call. */
    synchronized CompletableFuture<Long> refreshed() {
        if (next != null) {
            return next;
        }
        CompletableFuture<Long> read = new CompletableFuture<>();
        next = read;
        if (running == null) {
            startNext();
        }
        return read;
    }

    private void startNext() {
        CompletableFuture<Long> read = next;
        next = null;
        running = read;
        executor.run(links::highestAllocatedId).whenComplete((value, failure) -> {
            CompletableFuture<Long> done;
            synchronized (this) {
                if (failure == null) {
                    highest = Math.max(highest, value);
                }
                done = running;
                running = null;
                if (next != null) {
                    startNext();
                }
            }
            if (failure != null) {
                done.completeExceptionally(failure);
            } else {
                done.complete(highest);
            }
        });
    }
}
