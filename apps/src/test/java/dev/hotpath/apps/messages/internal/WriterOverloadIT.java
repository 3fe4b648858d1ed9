package dev.hotpath.apps.messages.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.apps.internal.FutureAnswer;
import dev.hotpath.http.Response;
import dev.hotpath.store.Durability;
import dev.hotpath.store.SqliteDatabase;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full writer queue answers {@code 503 overloaded} with {@code Retry-After}, and the writes it did
 * accept are stored once the writer can go on. Another connection's write lock holds the writer; with
 * batches of one and a queue of one, once the writer has taken the first create (its queue is empty
 * again) it is stuck on that one, the second fills the queue and the third is refused. The handler is
 * called directly, so every offer has happened when the lock is released.
 */
class WriterOverloadIT {
    private static final String BODY = "{\"from\":\"a\",\"to\":\"b\",\"message\":\"c\"}";

    @TempDir
    Path dir;

    @Test
    @Timeout(60)
    void aFullQueueIsOverloadedWithRetryAfterAndTheAcceptedWritesCommitLater() throws Exception {
        Path file = dir.resolve(MessagesSchema.FILE);
        MessagesService service = new MessagesService(SqliteMessageStore.open(file, Durability.FULL), 1, 1,
            Clock.systemUTC());
        List<FutureAnswer> answers = new ArrayList<>();
        try (Connection blocker = SqliteDatabase.open(file);
             Statement s = blocker.createStatement()) {
            s.execute("BEGIN IMMEDIATE");
            for (int i = 0; i < 3; i++) {
                FutureAnswer answer = new FutureAnswer();
                service.create(new StubRequest(BODY), answer);
                answers.add(answer);
                while (i == 0 && service.writerStats().queued() > 0) {
                    Thread.onSpinWait(); // until the writer holds the first create
                }
            }
            Response refused = answers.get(2).future().getNow(null);
            assertThat(refused).as("the third create is answered at once").isNotNull();
            String text = new String(refused.wire(), StandardCharsets.UTF_8);
            assertThat(refused.status()).isEqualTo(503);
            assertThat(text).contains("Retry-After: 1\r\n").endsWith("{\"error\":\"overloaded\","
                + "\"message\":\"too many writes are waiting; retry shortly\"}");
            s.execute("ROLLBACK");
        } finally {
            service.close();
        }
        assertThat(answers.get(0).future().get(30, TimeUnit.SECONDS).status()).isEqualTo(201);
        assertThat(answers.get(1).future().get(30, TimeUnit.SECONDS).status()).isEqualTo(201);
        CounterSnapshot refusals = (CounterSnapshot) service.metrics().collect().stream()
            .filter(m -> m.getMetadata().getName().equals("hotpath_messages_refusals")).findFirst().orElseThrow();
        assertThat(refusals.getDataPoints().stream().mapToDouble(CounterSnapshot.CounterDataPointSnapshot::getValue).sum())
            .as("refusals counted").isEqualTo(1.0);
    }
}
