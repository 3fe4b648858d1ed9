package dev.hotpath.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer under many offering threads, a failing commit and a close that races with offers. Every
 * outcome is checked per write (exactly one of committed or failed, or refused at offer) and against
 * the rows another connection reads. Threads meet at latches; the only waits are bounded safety nets
 * that fail the test when they run out.
 */
class GroupCommitStressIT {
    private static final long SAFETY_SECONDS = 60;
    private static final String INSERT = "INSERT INTO items (id) VALUES (?)";
    private static final int THREADS = 8;

    @TempDir
    Path dir;
    private Connection db;
    private Connection reader;

    @BeforeEach
    void open() throws SQLException {
        Path file = dir.resolve("stress.db");
        db = SqliteDatabase.openForWriting(file, Durability.NORMAL);
        try (Statement s = db.createStatement()) {
            s.execute("CREATE TABLE items (id INTEGER PRIMARY KEY)");
            s.execute("CREATE TABLE links (item INTEGER REFERENCES items(id) DEFERRABLE INITIALLY DEFERRED)");
        }
        db.commit();
        reader = SqliteDatabase.openForReading(file);
    }

    @AfterEach
    void close() throws SQLException {
        reader.close();
    }

    @Test
    void everyWriteOfManyThreadsIsCommittedExactlyOnceOrFailsAlone() throws Exception {
        int perThread = 2_000;
        List<Counted> writes = new ArrayList<>();
        for (int id = 0; id < THREADS * perThread; id++) {
            writes.add(id % 97 == 0 ? new Counted(id, true) : new Counted(id, false));
        }
        try (GroupCommitWriter writer = new GroupCommitWriter(db, GroupCommitConfig.named("stress").withQueueCapacity(64))) {
            runConcurrently(THREADS, t -> {
                for (int i = t * perThread; i < (t + 1) * perThread; i++) {
                    while (!writer.offer(writes.get(i))) {
                        Thread.yield(); // the queue is full: let the writer drain it
                    }
                }
            });
            awaitOutcomes(writes);
        }
        int failing = 0;
        for (Counted write : writes) {
            assertThat(write.committed.get() + write.failed.get()).as("outcomes of write %d", write.id).isEqualTo(1);
            assertThat(write.failed.get()).as("write %d failed", write.id).isEqualTo(write.fails ? 1 : 0);
            failing += write.fails ? 1 : 0;
        }
        assertThat(rows()).isEqualTo(writes.size() - failing);
    }

    @Test
    void threadsThatFindTheQueueFullAreRefusedAndNothingAcceptedIsLost() throws Exception {
        int capacity = 16;
        Gate gate = new Gate(-1);
        List<Counted> writes = new ArrayList<>();
        for (int id = 0; id < THREADS * capacity; id++) {
            writes.add(new Counted(id, false));
        }
        List<Counted> accepted;
        try (GroupCommitWriter writer = new GroupCommitWriter(db,
            GroupCommitConfig.named("full").withQueueCapacity(capacity))) {
            assertThat(writer.offer(gate)).isTrue();
            assertThat(gate.entered.await(SAFETY_SECONDS, TimeUnit.SECONDS)).isTrue();
            List<Counted> taken = java.util.Collections.synchronizedList(new ArrayList<>());
            runConcurrently(THREADS, t -> {
                for (int i = t * capacity; i < (t + 1) * capacity; i++) {
                    if (writer.offer(writes.get(i))) {
                        taken.add(writes.get(i));
                    }
                }
            });
            accepted = List.copyOf(taken);
            assertThat(accepted).as("the writer is held: the queue takes exactly its capacity").hasSize(capacity);
            gate.open.countDown();
            awaitOutcomes(accepted);
        }
        for (Counted write : writes) {
            int expected = accepted.contains(write) ? 1 : 0;
            assertThat(write.committed.get()).as("commits of write %d", write.id).isEqualTo(expected);
            assertThat(write.failed.get()).as("failures of write %d", write.id).isZero();
        }
        assertThat(rows()).isEqualTo(capacity + 1);
    }

    /**
     * The commit fails for real: a link to an item that does not exist passes its insert, since the
     * foreign key is checked only at the commit, which then fails and leaves the transaction open.
     */
    @Test
    void aFailingCommitFailsEveryWriteOfItsBatchAndTheWriterGoesOn() throws Exception {
        Gate gate = new Gate(-1);
        List<Counted> batch = List.of(new Counted(1, false), new DanglingLink(2), new Counted(3, false));
        Counted after = new Counted(4, false);
        try (GroupCommitWriter writer = new GroupCommitWriter(db, GroupCommitConfig.named("failing").withQueueCapacity(8))) {
            writer.offer(gate);
            assertThat(gate.entered.await(SAFETY_SECONDS, TimeUnit.SECONDS)).isTrue();
            batch.forEach(write -> assertThat(writer.offer(write)).isTrue());
            gate.open.countDown();
            awaitOutcomes(batch);

            assertThat(writer.offer(after)).isTrue();
            awaitOutcomes(List.of(after));
            assertThat(writer.stats().failed()).isEqualTo(3);
        }
        for (Counted write : batch) {
            assertThat(write.failed.get()).as("failures of write %d", write.id).isEqualTo(1);
            assertThat(write.committed.get()).as("commits of write %d", write.id).isZero();
            assertThat(write.cause).hasMessageContaining("FOREIGN KEY constraint failed");
        }
        assertThat(after.committed.get()).isEqualTo(1);
        assertThat(ids()).containsExactly(-1, 4);
    }

    @Test
    void closeWhileThreadsOfferGivesEveryAcceptedWriteOneOutcomeAndRefusesTheRest() throws Exception {
        AtomicBoolean closeCalled = new AtomicBoolean();
        List<List<Counted>> acceptedByThread = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            acceptedByThread.add(new ArrayList<>());
        }
        CountDownLatch someAccepted = new CountDownLatch(THREADS * 50);
        GroupCommitWriter writer = new GroupCommitWriter(db, GroupCommitConfig.named("closing").withQueueCapacity(32));
        Thread[] offering = new Thread[THREADS];
        for (int t = 0; t < THREADS; t++) {
            List<Counted> mine = acceptedByThread.get(t);
            int base = t * 1_000_000;
            offering[t] = Thread.ofPlatform().start(() -> {
                for (int i = base; ; i++) {
                    Counted write = new Counted(i, false);
                    if (writer.offer(write)) {
                        mine.add(write);
                        someAccepted.countDown();
                    } else if (closeCalled.get()) {
                        return;
                    }
                }
            });
        }
        assertThat(someAccepted.await(SAFETY_SECONDS, TimeUnit.SECONDS)).isTrue();
        closeCalled.set(true);
        writer.close();
        for (Thread thread : offering) {
            thread.join(TimeUnit.SECONDS.toMillis(SAFETY_SECONDS));
            assertThat(thread.isAlive()).isFalse();
        }

        List<Counted> accepted = acceptedByThread.stream().flatMap(List::stream).toList();
        for (Counted write : accepted) {
            assertThat(write.committed.get()).as("commits of accepted write %d", write.id).isEqualTo(1);
            assertThat(write.failed.get()).as("failures of accepted write %d", write.id).isZero();
        }
        assertThat(rows()).isEqualTo(accepted.size());
        assertThat(writer.offer(new Counted(-2, false))).isFalse();
    }

    /** Runs {@code body} on {@code threads} threads released together; returns when all are done. */
    private static void runConcurrently(int threads, ThreadBody body) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> running = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int index = t;
            running.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                body.run(index);
            }));
        }
        start.countDown();
        for (Thread thread : running) {
            thread.join(TimeUnit.SECONDS.toMillis(SAFETY_SECONDS));
            assertThat(thread.isAlive()).as("an offering thread finished").isFalse();
        }
    }

    private interface ThreadBody {
        void run(int thread);
    }

    private static void awaitOutcomes(List<Counted> writes) throws InterruptedException {
        for (Counted write : writes) {
            assertThat(write.done.await(SAFETY_SECONDS, TimeUnit.SECONDS)).as("write %d has an outcome", write.id).isTrue();
        }
    }

    private int rows() throws SQLException {
        try (Statement s = reader.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM items")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private List<Integer> ids() throws SQLException {
        List<Integer> ids = new ArrayList<>();
        try (Statement s = reader.createStatement(); ResultSet rs = s.executeQuery("SELECT id FROM items ORDER BY id")) {
            while (rs.next()) {
                ids.add(rs.getInt(1));
            }
        }
        return ids;
    }

    /** Inserts one row (or throws, when {@code fails}); counts its outcomes. */
    private static class Counted implements Write {
        final int id;
        final boolean fails;
        final AtomicInteger committed = new AtomicInteger();
        final AtomicInteger failed = new AtomicInteger();
        final CountDownLatch done = new CountDownLatch(1);
        volatile Exception cause;

        Counted(int id, boolean fails) {
            this.id = id;
            this.fails = fails;
        }

        @Override
        public void apply(Transaction transaction) throws SQLException {
            if (fails) {
                throw new SQLException("write " + id + " refused");
            }
            PreparedStatement insert = transaction.statement(INSERT);
            insert.setInt(1, id);
            insert.executeUpdate();
        }

        @Override
        public void committed() {
            committed.incrementAndGet();
            done.countDown();
        }

        @Override
        public void failed(Exception cause) {
            this.cause = cause;
            failed.incrementAndGet();
            done.countDown();
        }
    }

    /** A link to item {@code id + 1000}, which is never stored: its commit fails. */
    private static final class DanglingLink extends Counted {
        DanglingLink(int id) {
            super(id, false);
        }

        @Override
        public void apply(Transaction transaction) throws SQLException {
            PreparedStatement link = transaction.statement("INSERT INTO links (item) VALUES (?)");
            link.setInt(1, id + 1000);
            link.executeUpdate();
        }
    }

    /** An insert that holds the writer inside its transaction until the test opens it. */
    private static final class Gate extends Counted {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch open = new CountDownLatch(1);

        Gate(int id) {
            super(id, false);
        }

        @Override
        public void apply(Transaction transaction) throws SQLException {
            super.apply(transaction);
            entered.countDown();
            try {
                open.await(SAFETY_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
