package dev.hotpath.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hotpath.store.testing.Await;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer's contract. Batching is made deterministic by a first write that holds the writer inside
 * its transaction until the test has queued the rest.
 */
class GroupCommitWriterTest {
    private static final long SAFETY_SECONDS = 20;
    private static final String INSERT = "INSERT INTO items (id, name) VALUES (?, ?)";

    @TempDir
    Path dir;
    private Path file;
    private GroupCommitWriter writer;
    private Connection reader;
    private final List<String> events = new CopyOnWriteArrayList<>();

    @BeforeEach
    void open() throws SQLException {
        file = dir.resolve("test.db");
        Connection db = itemsDatabase(file, Durability.FULL);
        writer = new GroupCommitWriter(db, GroupCommitConfig.named("test-writer").withQueueCapacity(4));
        reader = SqliteDatabase.openForReading(file);
    }

    @AfterEach
    void close() throws SQLException {
        writer.close();
        reader.close();
    }

    @Test
    void acknowledgesAWriteOnlyWhenAnotherConnectionCanAlreadyReadIt() throws Exception {
        CompletableFuture<Boolean> visibleAtAcknowledgement = new CompletableFuture<>();
        assertThat(writer.offer(new Insert(1, "a") {
            @Override
            public void committed() {
                visibleAtAcknowledgement.complete(exists(1));
            }
        })).isTrue();
        assertThat(visibleAtAcknowledgement.get(SAFETY_SECONDS, TimeUnit.SECONDS)).isTrue();
    }

    /**
     * SQLite rolls a transaction back by itself when a commit fails on a full disk or an I/O error; the
     * commit fails, and so does the rollback after it, which in sqlite-jdbc then never begins the next
     * transaction, so a writer that went on would store each later write on its own while answering it
     * as failed. The first write here leaves the connection as such a commit does: rolled back, with
     * no transaction open.
     */
    @Test
    void aConnectionWhoseRollbackFailedIsNeverWrittenToAgain() throws Exception {
        Path full = dir.resolve("full.db");
        try (GroupCommitWriter retiring = new GroupCommitWriter(itemsDatabase(full, Durability.FULL), GroupCommitConfig.named("full-writer"))) {
            assertThat(retiring.offer(new Insert(1, "x") {
                @Override
                public void apply(Transaction transaction) throws SQLException {
                    super.apply(transaction);
                    transaction.statement("ROLLBACK").execute(); // what SQLite does itself on SQLITE_FULL at commit
                }
            })).isTrue();
            awaitEvents(1);
            for (int id = 2; id <= 3; id++) {
                assertThat(retiring.offer(new Insert(id, "x"))).isTrue();
                awaitEvents(id);
            }
        }
        assertThat(events).containsExactly("failed 1", "failed 2", "failed 3");
        assertThat(count(full)).as("no write answered as failed was stored").isZero();
    }

    /**
     * Each commit begins the next batch's transaction, whichever way it runs ({@link BatchTransaction}
     * commits through prepared statements where the connection allows): a write that fails after it
     * stored its row in a later batch takes the row with it.
     */
    @Test
    void everyBatchAfterACommitIsATransactionOfItsOwn() throws Exception {
        assertThat(writer.offer(new Insert(1, "a"))).isTrue();
        awaitEvents(1);
        assertThat(writer.offer(new Insert(2, "stored, then failed") {
            @Override
            public void apply(Transaction transaction) throws SQLException {
                super.apply(transaction);
                throw new SQLException("fails after its insert");
            }
        })).isTrue();
        awaitEvents(2);
        assertThat(writer.offer(new Insert(3, "c"))).isTrue();
        awaitEvents(3);

        assertThat(events).containsExactly("committed 1", "failed 2", "committed 3");
        assertThat(exists(2)).isFalse();
        assertThat(count(file)).isEqualTo(2);
    }

    private static int count(Path database) throws SQLException {
        try (Connection check = SqliteDatabase.openForReading(database);
             Statement s = check.createStatement();
             ResultSet rows = s.executeQuery("SELECT count(*) FROM items")) {
            rows.next();
            return rows.getInt(1);
        }
    }

    @Test
    void commitsWritesQueuedWhileTheWriterWasBusyInOneBatch() throws Exception {
        Gate gate = new Gate(1);
        writer.offer(gate);
        gate.entered.await(SAFETY_SECONDS, TimeUnit.SECONDS);
        assertThat(writer.offer(new Insert(2, "b"))).isTrue();
        assertThat(writer.offer(new Insert(3, "c"))).isTrue();
        assertThat(writer.offer(new Insert(4, "d"))).isTrue();

        gate.open.countDown();
        awaitEvents(4);

        assertThat(events).containsExactly("committed 1", "committed 2", "committed 3", "committed 4");
        assertThat(writer.stats().batches()).isEqualTo(2);
        assertThat(writer.stats().committed()).isEqualTo(4);
    }

    @Test
    void rollsBackAFailingWriteAloneAndCommitsItsNeighbours() throws Exception {
        Gate gate = new Gate(1);
        writer.offer(gate);
        gate.entered.await(SAFETY_SECONDS, TimeUnit.SECONDS);
        writer.offer(new Insert(2, "b"));
        writer.offer(new Insert(1, "duplicate key"));
        writer.offer(new Insert(3, "c"));

        gate.open.countDown();
        awaitEvents(4);

        assertThat(events).containsExactly("committed 1", "committed 2", "failed 1", "committed 3");
        assertThat(exists(2)).isTrue();
        assertThat(exists(3)).isTrue();
        assertThat(name(1)).isEqualTo("gate");
        assertThat(writer.stats().failed()).isEqualTo(1);
    }

    @Test
    void sendsBatchedRowsBeforeTheCommitAndIsolatesTheWriteWhoseRowFails() throws Exception {
        Gate gate = new Gate(1);
        writer.offer(gate);
        gate.entered.await(SAFETY_SECONDS, TimeUnit.SECONDS);
        BatchedInsert two = new BatchedInsert(2, "b");
        BatchedInsert duplicate = new BatchedInsert(1, "duplicate key");
        BatchedInsert ignored = new BatchedInsert(3, "c", "INSERT OR IGNORE INTO items (id, name) VALUES (?, ?)");
        BatchedInsert three = new BatchedInsert(3, "c");
        writer.offer(two);
        writer.offer(duplicate);
        writer.offer(three);
        writer.offer(ignored);

        gate.open.countDown();
        awaitEvents(5);

        assertThat(events).containsExactly("committed 1", "committed 2", "failed 1", "committed 3", "committed 3");
        assertThat(exists(2)).isTrue();
        assertThat(name(3)).isEqualTo("c");
        assertThat(two.row.updateCount()).isEqualTo(1);
        assertThat(three.row.updateCount()).isEqualTo(1);
        assertThat(ignored.row.updateCount()).as("an insert that did nothing counts 0").isZero();
    }

    /** A write through a {@link RowQuery} is part of the batch's transaction: rolled back alone when it fails, committed with its neighbours. */
    @Test
    void rollsBackAFailingQueryWriteAloneAndCommitsItsNeighbours() throws Exception {
        Gate gate = new Gate(1);
        writer.offer(gate);
        gate.entered.await(SAFETY_SECONDS, TimeUnit.SECONDS);
        writer.offer(new QueryInsert(2, "b\u00e9"));
        writer.offer(new QueryInsert(1, "duplicate key"));
        writer.offer(new QueryInsert(3, "c \uD83D\uDE80"));

        gate.open.countDown();
        awaitEvents(4);

        assertThat(events).containsExactly("committed 1", "committed 2", "failed 1", "committed 3");
        assertThat(name(1)).isEqualTo("gate");
        assertThat(name(2)).isEqualTo("b\u00e9");
        assertThat(name(3)).isEqualTo("c \uD83D\uDE80");
        assertThat(writer.stats().failed()).isEqualTo(1);
    }

    /**
     * The writer prepares a query once and finalizes it before it closes the connection: SQLite keeps a
     * connection open while a statement of it is prepared (sqlite-jdbc reports it closed all the
     * same), so the file would stay open for the process's life.
     */
    @Test
    void preparesEachQueryOnceAndFinalizesItBeforeClosingTheConnection() throws Exception {
        Path own = dir.resolve("queries.db");
        List<RowQuery> seen = new CopyOnWriteArrayList<>();
        try (GroupCommitWriter queries = new GroupCommitWriter(itemsDatabase(own, Durability.FULL), GroupCommitConfig.named("q-writer"))) {
            for (int id = 1; id <= 3; id++) {
                queries.offer(new QueryInsert(id, "x") {
                    @Override
                    public void apply(Transaction transaction) throws SQLException {
                        super.apply(transaction);
                        seen.add(transaction.query(INSERT));
                    }
                });
                awaitEvents(id);
            }
            assertThat(openFilesUnder(own)).as("the database is open while the writer runs").isNotEmpty();
        }
        assertThat(seen).hasSize(3);
        assertThat(seen.get(1)).isSameAs(seen.get(0));
        assertThat(seen.get(2)).isSameAs(seen.get(0));
        assertThatThrownBy(() -> seen.get(0).run()).isInstanceOf(SQLException.class).hasMessageContaining("the query is closed");
        assertThat(openFilesUnder(own)).as("no descriptor left on the database or its WAL").isEmpty();
    }

    /** This process's open descriptors on {@code file} or a file beside it named after it ({@code -wal}, {@code -shm}). */
    private static List<Path> openFilesUnder(Path file) throws IOException {
        String name = file.toRealPath().toString();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.flatMap(fd -> {
                try {
                    return Stream.of(Files.readSymbolicLink(fd));
                } catch (IOException e) {
                    return Stream.empty(); // the listing's own descriptor, closed by now
                }
            }).filter(target -> target.toString().startsWith(name)).toList();
        }
    }

    @Test
    void refusesWritesWhileTheQueueIsFull() throws Exception {
        Gate gate = new Gate(1);
        writer.offer(gate);
        gate.entered.await(SAFETY_SECONDS, TimeUnit.SECONDS);
        for (int i = 0; i < 4; i++) {
            assertThat(writer.offer(new Insert(10 + i, "x"))).isTrue();
        }
        assertThat(writer.offer(new Insert(20, "refused"))).isFalse();
        gate.open.countDown();
        awaitEvents(5);
        assertThat(exists(20)).isFalse();
    }

    @Test
    void closeCommitsWhatIsQueuedThenRefusesNewWrites() throws Exception {
        Gate gate = new Gate(1);
        writer.offer(gate);
        gate.entered.await(SAFETY_SECONDS, TimeUnit.SECONDS);
        writer.offer(new Insert(2, "b"));
        writer.offer(new Insert(3, "c"));
        Thread closer = Thread.ofPlatform().start(writer::close);
        gate.open.countDown();
        closer.join(TimeUnit.SECONDS.toMillis(SAFETY_SECONDS));

        assertThat(events).containsExactly("committed 1", "committed 2", "committed 3");
        assertThat(writer.offer(new Insert(4, "late"))).isFalse();
    }

    /** An idle writer's thread rests without a timeout, so only the offer's wake-up can commit the write. */
    @Test
    void anOfferWakesTheRestingWriter() throws Exception {
        Thread thread = Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().equals("test-writer")).findFirst().orElseThrow();
        Await.until("the idle writer resting", () -> LockSupport.getBlocker(thread) instanceof Rest);

        assertThat(writer.offer(new Insert(1, "wake"))).isTrue();
        awaitEvents(1);

        assertThat(events).containsExactly("committed 1");
    }

    @Test
    void commitsAtOnceWhenIdleThenNoSoonerThanTheIntervalAfterTheLastCommit() throws Exception {
        Connection db = itemsDatabase(dir.resolve("interval.db"), Durability.NORMAL);
        GroupCommitWriter paced = new GroupCommitWriter(db, GroupCommitConfig.named("paced-writer").withQueueCapacity(4)
            .withCommitInterval(Duration.ofHours(1)));
        assertThat(paced.offer(new Insert(1, "x"))).isTrue();
        awaitEvents(1);
        assertThat(events).as("an idle writer commits the first write at once").containsExactly("committed 1");
        for (int id = 2; id <= 4; id++) {
            assertThat(paced.offer(new Insert(id, "x"))).isTrue();
        }
        assertThat(events).as("within the interval nothing more is acknowledged").hasSize(1);
        paced.close();
        assertThat(events).containsExactly("committed 1", "committed 2", "committed 3", "committed 4");
        assertThat(paced.stats().batches()).as("the three later writes shared one commit").isEqualTo(2);
    }

    @Test
    void preparesEachStatementOnceForEveryWriteAndClosesItWithTheWriter() throws Exception {
        List<PreparedStatement> seen = new CopyOnWriteArrayList<>();
        for (int id = 1; id <= 3; id++) {
            writer.offer(new Insert(id, "x") {
                @Override
                public void apply(Transaction transaction) throws SQLException {
                    super.apply(transaction);
                    seen.add(transaction.statement(INSERT));
                }
            });
            awaitEvents(id);
        }
        writer.close();

        assertThat(seen).hasSize(3);
        assertThat(seen.get(1)).isSameAs(seen.get(0));
        assertThat(seen.get(2)).isSameAs(seen.get(0));
        assertThat(seen.get(0).isClosed()).isTrue();
    }

    @Test
    void runsWritesInAPrivateMemoryDatabaseInDurabilityNoneAndCreatesNoFile() throws Exception {
        Path none = dir.resolve("none.db");
        Connection memory = itemsDatabase(none, Durability.NONE);
        try (GroupCommitWriter memoryOnly = new GroupCommitWriter(memory, GroupCommitConfig.named("none-writer"))) {
            memoryOnly.offer(new Insert(1, "a"));
            memoryOnly.offer(new Insert(1, "duplicate key"));
            awaitEvents(2);
        }
        assertThat(events).containsExactly("committed 1", "failed 1");
        assertThat(java.nio.file.Files.exists(none)).isFalse();
        assertThat(exists(1)).as("nothing reached the test's file database").isFalse();
    }

    @Test
    void reopensAConnectionFromItsSourceAfterABatchBrokeTheOneItHad() throws Exception {
        List<Connection> opened = new CopyOnWriteArrayList<>();
        try (GroupCommitWriter reopening = new GroupCommitWriter(() -> {
            Connection db = SqliteDatabase.openForWriting(file, Durability.FULL);
            opened.add(db);
            return db;
        }, GroupCommitConfig.named("reopening-writer"))) {
            reopening.offer(new BreakConnection(1));
            awaitEvents(1);
            reopening.offer(new Insert(2, "b"));
            awaitEvents(2);
        }

        assertThat(events).containsExactly("failed 1", "committed 2");
        assertThat(opened).hasSize(2);
        assertThat(opened.getFirst().isClosed()).isTrue();
        assertThat(exists(2)).isTrue();
    }

    @Test
    void failsABatchAtOnceWhileItsSourceCannotConnectAndCommitsTheNextOnceItCan() throws Exception {
        AtomicBoolean serverUp = new AtomicBoolean();
        try (GroupCommitWriter reopening = new GroupCommitWriter(() -> {
            if (!serverUp.get()) {
                throw new SQLException("connection refused");
            }
            return SqliteDatabase.openForWriting(file, Durability.FULL);
        }, GroupCommitConfig.named("reopening-writer"))) {
            reopening.offer(new Insert(1, "a"));
            awaitEvents(1);
            serverUp.set(true);
            reopening.offer(new Insert(2, "b"));
            awaitEvents(2);
        }

        assertThat(events).containsExactly("failed 1", "committed 2");
        assertThat(exists(1)).isFalse();
        assertThat(exists(2)).isTrue();
    }

    @Test
    void keepsAFixedConnectionForLifeEvenWhenItBreaks() throws Exception {
        writer.offer(new BreakConnection(1));
        awaitEvents(1);
        writer.offer(new Insert(2, "b"));
        awaitEvents(2);

        assertThat(events).containsExactly("failed 1", "failed 2");
    }

    @Test
    void runsTheWorkAfterACommitOnTheWriterThreadOnceTheBatchIsAnswered() throws Exception {
        Connection db = itemsDatabase(dir.resolve("after.db"), Durability.FULL);
        Runnable afterCommit = () -> {
            synchronized (events) {
                events.add("after commit on " + Thread.currentThread().getName());
                events.notifyAll();
            }
        };
        try (GroupCommitWriter after = new GroupCommitWriter(db,
            GroupCommitConfig.named("after-writer").withAfterCommit(afterCommit))) {
            after.offer(new Insert(1, "a"));
            awaitEvents(2);
            after.offer(new Insert(2, "b"));
            awaitEvents(4);
        }
        assertThat(events).containsExactly("committed 1", "after commit on after-writer",
            "committed 2", "after commit on after-writer");
    }

    @Test
    void goesOnCommittingWhenTheWorkAfterACommitFails() throws Exception {
        Connection db = itemsDatabase(dir.resolve("after.db"), Durability.FULL);
        Runnable failing = () -> {
            throw new IllegalStateException("after-commit work failed (simulated)");
        };
        try (GroupCommitWriter after = new GroupCommitWriter(db,
            GroupCommitConfig.named("after-writer").withAfterCommit(failing))) {
            after.offer(new Insert(1, "a"));
            awaitEvents(1);
            after.offer(new Insert(2, "b"));
            awaitEvents(2);
        }
        assertThat(events).containsExactly("committed 1", "committed 2");
    }

    /** A write connection on {@code file}, its {@code items} table created. */
    private static Connection itemsDatabase(Path file, Durability durability) throws SQLException {
        Connection db = SqliteDatabase.openForWriting(file, durability);
        try (Statement s = db.createStatement()) {
            s.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)");
        }
        db.commit();
        return db;
    }

    private void awaitEvents(int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SAFETY_SECONDS);
        synchronized (events) {
            while (events.size() < count && System.nanoTime() < deadline) {
                events.wait(100);
            }
        }
        assertThat(events).hasSize(count);
    }

    private boolean exists(int id) {
        return name(id) != null;
    }

    private String name(int id) {
        try (PreparedStatement s = reader.prepareStatement("SELECT name FROM items WHERE id = ?")) {
            s.setInt(1, id);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Inserts one row; records its outcome. */
    private class Insert implements Write {
        final int id;
        final String name;

        Insert(int id, String name) {
            this.id = id;
            this.name = name;
        }

        @Override
        public void apply(Transaction transaction) throws SQLException {
            PreparedStatement insert = transaction.statement(INSERT);
            insert.setInt(1, id);
            insert.setString(2, name);
            insert.executeUpdate();
        }

        @Override
        public void committed() {
            record("committed " + id);
        }

        @Override
        public void failed(Exception cause) {
            record("failed " + id);
        }

        private void record(String event) {
            synchronized (events) {
                events.add(event);
                events.notifyAll();
            }
        }
    }

    /** Closes the writer's connection under it, as a server restart would, and fails. */
    private final class BreakConnection extends Insert {
        BreakConnection(int id) {
            super(id, "break");
        }

        @Override
        public void apply(Transaction transaction) throws SQLException {
            transaction.statement(INSERT).getConnection().close();
            throw new SQLException("connection lost");
        }
    }

    /** An insert through the transaction's {@link RowQuery}, its name bound as UTF-8 bytes. */
    private class QueryInsert extends Insert {
        QueryInsert(int id, String name) {
            super(id, name);
        }

        @Override
        public void apply(Transaction transaction) throws SQLException {
            RowQuery insert = transaction.query(INSERT);
            byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
            insert.bind(1, id);
            insert.bind(2, utf8, 0, utf8.length);
            insert.execute();
        }
    }

    /** An insert as a batched row: sent with the batch, its count read after the commit. */
    private final class BatchedInsert extends Insert {
        private final String sql;
        Transaction.BatchedRow row;

        BatchedInsert(int id, String name) {
            this(id, name, INSERT);
        }

        BatchedInsert(int id, String name, String sql) {
            super(id, name);
            this.sql = sql;
        }

        @Override
        public void apply(Transaction transaction) throws SQLException {
            PreparedStatement insert = transaction.statement(sql);
            insert.setInt(1, id);
            insert.setString(2, name);
            row = transaction.addBatch(sql);
        }
    }

    /** An insert that holds the writer inside the transaction until the test opens it. */
    private final class Gate extends Insert {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch open = new CountDownLatch(1);
        private boolean passed;

        Gate(int id) {
            super(id, "gate");
        }

        @Override
        public void apply(Transaction transaction) throws SQLException {
            super.apply(transaction);
            if (!passed) {
                passed = true;
                entered.countDown();
                try {
                    open.await(SAFETY_SECONDS, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
