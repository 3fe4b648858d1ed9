package dev.hotpath.bench.messages;

import dev.hotpath.apps.messages.internal.ListIndex;
import dev.hotpath.apps.messages.internal.Message;
import dev.hotpath.apps.messages.internal.MessageIds;
import dev.hotpath.apps.messages.internal.MessageStore;
import dev.hotpath.apps.messages.internal.MessagesSchema;
import dev.hotpath.apps.messages.internal.NewMessage;
import dev.hotpath.apps.messages.internal.SqliteMessageStore;
import dev.hotpath.store.Durability;
import dev.hotpath.store.RowQuery;
import dev.hotpath.store.SqliteDatabase;
import dev.hotpath.store.Transaction;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One pass of the SQLite messages' lists ({@link ListIndex#pass()}): the messages stored since the last
 * pass copied into the inbox and the outbox, sorted by key, in one transaction of {@code lists.db}.
 * Before each pass, untimed, {@code rows} new messages are stored the way {@code hotpath bench messages}
 * sends them (one sender, {@value #RECIPIENTS} recipients in turn). Each iteration starts from a copy
 * of the same files, {@code prefill} messages stored and listed, so iterations differ only by what their
 * own passes added. The score is one pass: divided by {@code rows} it is what a message's listing costs
 * the direct path's core (docs/BENCHMARKS.md), and comparing sizes shows what larger passes would save.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ListPassBenchmark {
    /** As the harness's messages scenario. */
    private static final int RECIPIENTS = 1_000;
    /**
     * Messages a commit stores while the next pass's rows are written: the stored rows are what a pass
     * reads, whatever the commits were, so only how fast the untimed part goes depends on it.
     */
    private static final int ROWS_PER_COMMIT = 256;

    @Param({"8192", "32768"})
    public int rows;

    @Param("200000")
    public int prefill;

    private Path dir;
    private final MessageIds ids = new MessageIds(Clock.systemUTC());
    private long sequence;
    private Connection db;
    private PreparedStatement insert;
    private MessageStore store;
    private Transaction transaction;
    private ListIndex lists;

    /** The files every iteration starts from: {@code prefill} messages, all listed. */
    @Setup(Level.Trial)
    public void prefill() throws IOException, SQLException {
        dir = Files.createTempDirectory("list-pass-bench");
        open(dir.resolve("template"), prefill);
        closeFiles();
    }

    @Setup(Level.Iteration)
    public void openACopy() throws IOException, SQLException {
        Path work = dir.resolve("work");
        Files.createDirectories(work);
        try (Stream<Path> files = Files.list(dir.resolve("template"))) {
            for (Path f : files.toList()) {
                Files.copy(f, work.resolve(f.getFileName()));
            }
        }
        open(work, 0);
    }

    @Setup(Level.Invocation)
    public void storeThePassRows() throws SQLException {
        store(rows);
    }

    @Benchmark
    public void pass() throws SQLException {
        lists.pass();
    }

    @TearDown(Level.Iteration)
    public void closeTheCopy() throws IOException, SQLException {
        closeFiles();
        delete(dir.resolve("work"));
    }

    @TearDown(Level.Trial)
    public void deleteAll() throws IOException {
        delete(dir);
    }

    /**
     * The messages file in {@code directory} with the schema and a writer's insert, {@code messages} more
     * messages stored, and its lists, which list everything unlisted before they open.
     */
    private void open(Path directory, int messages) throws IOException, SQLException {
        Files.createDirectories(directory);
        Path file = directory.resolve(MessagesSchema.FILE);
        store = SqliteMessageStore.open(file, Durability.NORMAL); // for its insert; its writer is not used
        db = SqliteDatabase.openForWriting(file, Durability.NORMAL);
        MessagesSchema.create(db);
        insert = db.prepareStatement(store.insertSql());
        transaction = inserting(insert, store.insertSql());
        store(messages);
        lists = ListIndex.open(file, Long.MAX_VALUE, rows);
    }

    private void closeFiles() throws SQLException {
        lists.close();
        insert.close();
        db.close();
        store.close();
    }

    private void store(int count) throws SQLException {
        for (int i = 0; i < count; i++) {
            long n = sequence++;
            NewMessage request = new NewMessage("bench-list-pass", "user" + n % RECIPIENTS,
                "hotpath bench message " + n + " of run list-pass \u00e9\u4e2d\ud83d\ude00");
            store.insert(transaction, Message.create(ids.next(), request));
            if (i % ROWS_PER_COMMIT == ROWS_PER_COMMIT - 1) {
                db.commit();
            }
        }
        db.commit();
    }

    /** The writer's view of a transaction, for the one statement the store's insert asks for. */
    private static Transaction inserting(PreparedStatement insert, String insertSql) {
        return new Transaction() {
            @Override
            public PreparedStatement statement(String sql) {
                if (!sql.equals(insertSql)) {
                    throw new IllegalArgumentException("only the store's insert is prepared here, not " + sql);
                }
                return insert;
            }

            @Override
            public RowQuery query(String sql) {
                throw new UnsupportedOperationException("the store's insert is a JDBC statement");
            }

            @Override
            public BatchedRow addBatch(String sql) {
                throw new UnsupportedOperationException("SQLite inserts at once");
            }
        };
    }

    private static void delete(Path tree) throws IOException {
        try (Stream<Path> files = Files.walk(tree)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }
}
