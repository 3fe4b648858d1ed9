package dev.hotpath.apps.shortener.internal;

import dev.hotpath.store.Transaction;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Hands out link ids on a write node's writer thread, from blocks of {@value PostgresLinks#ID_BLOCK}
 * taken with one {@code nextval} of the {@code link_ids} sequence. A sequence never gives a value
 * twice, also across crashes and restarts, so ids are never reused; a node that stops leaves the rest
 * of its block unused (a gap). Nothing here depends on Redis.
 */
final class IdBlocks {
    private final IdBound bound;
    private final AtomicLong blocksTaken = new AtomicLong();
    /** Writer thread: the next id to hand out and the last of the block. */
    private long next;
    private long last = -1;

    IdBlocks(IdBound bound) {
        this.bound = bound;
    }

    /** The next id, taking a new block in {@code transaction} when this one is used up. */
    long take(Transaction transaction) throws SQLException {
        if (next > last) {
            try (ResultSet rows = transaction.statement("SELECT nextval('link_ids')").executeQuery()) {
                rows.next();
                next = rows.getLong(1);
            }
            last = next + PostgresLinks.ID_BLOCK - 1;
            blocksTaken.incrementAndGet();
            bound.atLeast(last);
        }
        return next++;
    }

    long blocksTaken() {
        return blocksTaken.get();
    }
}
