package dev.hotpath.apps.shortener.internal;

import dev.hotpath.store.Transaction;
import dev.hotpath.store.TransactionListener;
import dev.hotpath.store.Write;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;

/**
 * The {@link Write}s of {@code SqliteLinkStore}: insert links, mark one deleted, append the visit log.
 * Each publishes to the {@link LinkTable} in {@code committed()}, on the writer thread, before it
 * tells its outcome.
 *
 * <p>Ids are handed out on the writer thread, in commit order, so they stay contiguous: an insert
 * that fails takes no id, and a batch rolled back whole gives its ids back (this is the writer's
 * {@link TransactionListener}).
 */
final class SqliteLinkWrites implements TransactionListener {
    private static final System.Logger LOG = System.getLogger(SqliteLinkWrites.class.getName());
    private static final String INSERT = "INSERT INTO links (id, name, long_url, created_at, expires_at, protected)"
        + " VALUES (?, ?, ?, ?, ?, ?)";
    private static final String DELETE = "UPDATE links SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL";
    private static final String APPEND_VISITS = "INSERT INTO visit_log (counts) VALUES (?)";

    private final LinkTable table;
    /** Writer thread: the id the next successful insert takes, and its value when the batch began. */
    private int nextId;
    private int batchStartId;

    SqliteLinkWrites(LinkTable table) {
        this.table = table;
        this.nextId = table.size();
    }

    @Override
    public void begun() {
        batchStartId = nextId;
    }

    @Override
    public void rolledBack() {
        nextId = batchStartId;
    }

    Write insert(List<NewLink> links, LinkStore.Outcome<int[]> outcome) {
        return new InsertLinks(links, outcome);
    }

    Write delete(int id, long deletedAt, LinkStore.Outcome<Boolean> outcome) {
        return new DeleteLink(id, deletedAt, outcome);
    }

    Write appendVisits() {
        return new AppendVisits();
    }

    /** Inserts links in one transaction; publishes them, then reports their ids. */
    private final class InsertLinks implements Write {
        private final List<NewLink> links;
        private final LinkStore.Outcome<int[]> outcome;
        private final int[] ids;

        InsertLinks(List<NewLink> links, LinkStore.Outcome<int[]> outcome) {
            this.links = links;
            this.outcome = outcome;
            this.ids = new int[links.size()];
        }

        @Override
        public void apply(Transaction transaction) throws SQLException {
            PreparedStatement insert = transaction.statement(INSERT);
            // The ids are taken only once every row is in: a row that throws rolls this write back to
            // its savepoint, and the writer's next id must go back with it, or the next write would
            // store a gap that publish refuses and a restart reads as corruption.
            int next = nextId;
            for (int i = 0; i < links.size(); i++) {
                NewLink link = links.get(i);
                insert.setInt(1, next);
                insert.setString(2, link.name());
                insert.setString(3, link.url());
                insert.setLong(4, link.createdAt());
                if (link.expiresAt() < 0) {
                    insert.setNull(5, Types.INTEGER);
                } else {
                    insert.setLong(5, link.expiresAt());
                }
                insert.setInt(6, link.isProtected() ? 1 : 0);
                insert.executeUpdate();
                ids[i] = next++;
            }
            nextId = next;
        }

        @Override
        public void committed() {
            for (int i = 0; i < links.size(); i++) {
                NewLink link = links.get(i);
                table.publish(ids[i], link.url(), link.createdAt(), link.name(), link.isProtected(), link.expiresAt(),
                    0, false);
            }
            outcome.stored(ids);
        }

        @Override
        public void failed(Exception cause) {
            LOG.log(System.Logger.Level.ERROR, "create failed", cause);
            outcome.failed();
        }
    }

    /** Marks one link deleted; tells whether this delete was the one that did. */
    private final class DeleteLink implements Write {
        private final int id;
        private final long deletedAt;
        private final LinkStore.Outcome<Boolean> outcome;

        DeleteLink(int id, long deletedAt, LinkStore.Outcome<Boolean> outcome) {
            this.id = id;
            this.deletedAt = deletedAt;
            this.outcome = outcome;
        }

        @Override
        public void apply(Transaction transaction) throws SQLException {
            PreparedStatement update = transaction.statement(DELETE);
            update.setLong(1, deletedAt);
            update.setInt(2, id);
            update.executeUpdate();
        }

        @Override
        public void committed() {
            outcome.stored(table.markDeleted(id));
        }

        @Override
        public void failed(Exception cause) {
            LOG.log(System.Logger.Level.ERROR, "delete failed", cause);
            outcome.failed();
        }
    }

    /**
     * Appends the visit counts changed since the last flush as one {@link VisitLog} row. The counts are
     * drained once, so a retry of this write by the writer inserts the same row; if it fails for good,
     * the drained links are marked unpersisted and the next flush writes them again.
     */
    private final class AppendVisits implements Write {
        private byte[] counts;

        @Override
        public void apply(Transaction transaction) throws SQLException {
            if (counts == null) {
                counts = VisitLog.drainChanged(table);
            }
            if (counts.length > 0) {
                PreparedStatement insert = transaction.statement(APPEND_VISITS);
                insert.setBytes(1, counts);
                insert.executeUpdate();
            }
        }

        @Override
        public void committed() {
        }

        @Override
        public void failed(Exception cause) {
            LOG.log(System.Logger.Level.WARNING, "visit counts not persisted; the next flush retries them", cause);
            if (counts != null) {
                VisitLog.forEach(counts, (id, visits) -> table.unpersist(id));
            }
        }
    }
}
