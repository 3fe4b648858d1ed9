package dev.hotpath.apps.messages.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.store.Durability;
import dev.hotpath.store.GroupCommitConfig;
import dev.hotpath.store.GroupCommitWriter;
import dev.hotpath.store.SqliteDatabase;
import dev.hotpath.store.Transaction;
import dev.hotpath.store.Write;
import dev.hotpath.store.testing.Await;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer of the SQLite store has its checkpoints and its lists on threads beside it, which the store
 * stops when it closes; under steady writes its WAL starts over; what it acknowledged is in the file after it; it
 * lists what it committed once idle.
 */
class SqliteMessageStoreIT {
    private static final long SAFETY_SECONDS = 20;
    private static final String CHECKPOINT_THREAD = "sqlite-checkpoints";
    private static final String LISTS_THREAD = "message-lists";

    @TempDir
    Path dir;

    private final MessageIds ids = new MessageIds(Clock.systemUTC());
    private int sent;

    @Test
    void eachWriterCheckpointsAndListsOnThreadsThatTheStoreStopsAndKeepsWhatItAcknowledged() throws Exception {
        Path file = dir.resolve(MessagesSchema.FILE);
        Message message = new Message(MessageId.parse("019ad7f0-3c00-7abc-8def-0123456789ab"), "alice", "bob", "kept",
            "2026-12-01T00:00:00.000Z");
        Set<Thread> checkpointsBefore = threads(CHECKPOINT_THREAD);
        Set<Thread> listsBefore = threads(LISTS_THREAD);

        SqliteMessageStore store = SqliteMessageStore.open(file, Durability.FULL);
        GroupCommitWriter writer = store.openWriter(GroupCommitConfig.named("messages-writer-test"));
        Set<Thread> started = threads(CHECKPOINT_THREAD);
        started.removeAll(checkpointsBefore);
        assertThat(started).as("one checkpoint thread for the writer").hasSize(1);
        Set<Thread> listing = threads(LISTS_THREAD);
        listing.removeAll(listsBefore);
        assertThat(listing).as("one lists thread for the writer").hasSize(1);
        started.addAll(listing);

        assertThat(store(store, writer, message).get(SAFETY_SECONDS, TimeUnit.SECONDS)).isTrue();
        writer.close();
        store.close();

        assertThat(started).allSatisfy(thread -> assertThat(thread.isAlive()).as("stopped by the store's close").isFalse());
        try (SqliteMessageStore reopened = SqliteMessageStore.open(file, Durability.FULL)) {
            Message found = reopened.read(reads -> reads.byId(message.id()));
            assertThat(found).isEqualTo(message);
        }
    }

    /**
     * The writer's automatic checkpoints are off, so something else must start its WAL over, or it grows
     * for as long as the writes go on: the writer's own small checkpoint once a background one has found
     * the WAL past its bound, or (less often) a background checkpoint that caught up between two batches.
     * The WAL header's checkpoint sequence number counts the restarts. (Which of the two restarted it is
     * not told apart: with the rewind removed this test still passes, in about 4 s instead of 1.)
     */
    @Test
    void underSteadyWritesTheWalStartsOver() throws Exception {
        Path file = dir.resolve(MessagesSchema.FILE);
        Path wal = file.resolveSibling(MessagesSchema.FILE + "-wal");
        try (SqliteMessageStore store = SqliteMessageStore.open(file, Durability.NORMAL, Duration.ofMillis(5), 32)) {
            GroupCommitWriter writer = store.openWriter(GroupCommitConfig.named("messages-writer-test"));
            Queue<CompletableFuture<Boolean>> written = new ConcurrentLinkedQueue<>();
            AtomicBoolean feeding = new AtomicBoolean(true);
            // Offers faster than the writer commits, so its queue stays full and it never idles.
            Thread feeder = Thread.ofPlatform().name("steady-writes").start(() -> {
                while (feeding.get()) {
                    written.add(store(store, writer, next()));
                }
            });
            try {
                Await.until("the first write to be offered", () -> written.peek() != null);
                assertThat(written.peek().get(SAFETY_SECONDS, TimeUnit.SECONDS)).isTrue();
                int first = walCheckpointSequence(wal);
                Await.until("the WAL to start over", () -> walCheckpointSequence(wal) != first);
            } finally {
                feeding.set(false);
                feeder.join();
                writer.close();
            }
            for (CompletableFuture<Boolean> each : written) {
                assertThat(each.get(SAFETY_SECONDS, TimeUnit.SECONDS)).isTrue();
            }
        }
    }

    /** The writer lists what it committed once it has nothing else to do, without any further write. */
    @Test
    void theWriterListsWhatItCommittedOnceIdle() throws Exception {
        Path file = dir.resolve(MessagesSchema.FILE);
        try (SqliteMessageStore store = SqliteMessageStore.open(file, Durability.NORMAL)) {
            GroupCommitWriter writer = store.openWriter(GroupCommitConfig.named("messages-writer-test"));
            try (Connection read = SqliteDatabase.openForReading(dir.resolve(ListIndex.FILE))) {
                for (int i = 0; i < 3; i++) {
                    assertThat(store(store, writer, next()).get(SAFETY_SECONDS, TimeUnit.SECONDS)).isTrue();
                }
                Await.until("the three rows to be listed", () -> listed(read) >= 3);
                assertThat(listed(read)).as("rows in the inbox").isEqualTo(3);
            } finally {
                writer.close();
            }
        }
    }

    private static long listed(Connection read) throws SQLException {
        try (Statement s = read.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM inbox")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private Message next() {
        return Message.create(ids.next(), new NewMessage("alice", "bob" + sent++ % 7, "steady"));
    }

    /** Offers one insert of {@code message}, retrying while the queue is full; completes at its commit. */
    private static CompletableFuture<Boolean> store(SqliteMessageStore store, GroupCommitWriter writer, Message message) {
        CompletableFuture<Boolean> stored = new CompletableFuture<>();
        Write insert = new Write() {
            @Override
            public void apply(Transaction transaction) throws SQLException {
                store.insert(transaction, message);
            }

            @Override
            public void committed() {
                stored.complete(true);
            }

            @Override
            public void failed(Exception cause) {
                stored.completeExceptionally(cause);
            }
        };
        while (!writer.offer(insert)) {
            Thread.yield(); // the queue is full: let the writer have the core
        }
        return stored;
    }

    /** Bytes 12 to 15 of a WAL file's header: how many times this WAL has been started over. */
    private static int walCheckpointSequence(Path wal) throws IOException {
        try (RandomAccessFile file = new RandomAccessFile(wal.toFile(), "r")) {
            file.seek(12);
            return file.readInt();
        }
    }

    private static Set<Thread> threads(String name) {
        Set<Thread> threads = new HashSet<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().equals(name) && thread.isAlive()) {
                threads.add(thread);
            }
        }
        return threads;
    }
}
