package dev.hotpath.apps.messages.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.store.Durability;
import dev.hotpath.store.GroupCommitConfig;
import dev.hotpath.store.GroupCommitWriter;
import dev.hotpath.store.Transaction;
import dev.hotpath.store.Write;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer of the SQLite store has its checkpoints on a thread beside it, which the store stops when it
 * closes, and what the writer acknowledged is in the file after it.
 */
class SqliteMessageStoreIT {
    private static final long SAFETY_SECONDS = 20;
    private static final String CHECKPOINT_THREAD = "sqlite-checkpoints";

    @TempDir
    Path dir;

    @Test
    void eachWriterCheckpointsOnAThreadThatTheStoreStopsAndKeepsWhatItAcknowledged() throws Exception {
        Path file = dir.resolve(MessagesSchema.FILE);
        Message message = new Message(MessageId.parse("019ad7f0-3c00-7abc-8def-0123456789ab"), "alice", "bob", "kept",
            "2026-12-01T00:00:00.000Z");
        Set<Thread> before = checkpointThreads();

        SqliteMessageStore store = SqliteMessageStore.open(file, Durability.FULL);
        GroupCommitWriter writer = store.openWriter(GroupCommitConfig.named("messages-writer-test"));
        Set<Thread> started = checkpointThreads();
        started.removeAll(before);
        assertThat(started).as("one checkpoint thread for the writer").hasSize(1);

        CompletableFuture<Boolean> stored = new CompletableFuture<>();
        assertThat(writer.offer(new Write() {
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
        })).isTrue();
        assertThat(stored.get(SAFETY_SECONDS, TimeUnit.SECONDS)).isTrue();
        writer.close();
        store.close();

        assertThat(started).allSatisfy(thread -> assertThat(thread.isAlive()).as("stopped by the store's close").isFalse());
        try (SqliteMessageStore reopened = SqliteMessageStore.open(file, Durability.FULL)) {
            Message found = reopened.read(reads -> reads.byId(message.id()));
            assertThat(found).isEqualTo(message);
        }
    }

    private static Set<Thread> checkpointThreads() {
        Set<Thread> threads = new HashSet<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().equals(CHECKPOINT_THREAD) && thread.isAlive()) {
                threads.add(thread);
            }
        }
        return threads;
    }
}
