package dev.hotpath.apps.messages.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.apps.messages.TestStore;
import dev.hotpath.store.RedisConfig;
import dev.hotpath.store.RedisConnections;
import dev.hotpath.store.testing.Await;
import dev.hotpath.store.testing.ThrowawayRedis;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAddArgs;
import io.lettuce.core.api.sync.RedisCommands;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The stream worker against a real Redis and each store (SQLite, PostgreSQL), with its seams: dead letters (at once for an
 * entry that is not a message, after {@value StreamWorker#MAX_DELIVERIES} failures of its own insert),
 * store failures that count against no entry, and a worker that dies between commit and {@code XACK}.
 */
@Timeout(120)
@ParameterizedClass
@EnumSource(TestStore.class)
class StreamWorkerIT {
    /** Short times, so recovery and claiming happen within a test. */
    private static final StreamWorker.Settings FAST = StreamWorker.Settings.defaults()
        .withTimes(Duration.ofMillis(200), Duration.ofMillis(20), Duration.ofMillis(50));

    @Parameter
    TestStore kind;
    @TempDir
    Path dir;

    private final MessageIds ids = new MessageIds(Clock.systemUTC());
    private TestStore.Place place;
    private MessagesService service;
    private RedisConnections redisConnections;
    private RedisCommands<String, String> redis;

    @BeforeEach
    void open() throws SQLException {
        place = kind.fresh(dir);
        service = new MessagesService(place.open(), 256, 8192, Clock.systemUTC());
        redisConnections = new RedisConnections(RedisConfig.parse(ThrowawayRedis.shared().uri()));
        redis = redisConnections.shared().sync();
    }

    @AfterEach
    void close() {
        service.close();
        redisConnections.close();
        ThrowawayRedis.shared().flushAll();
    }

    private Message append(String text) {
        Message message = Message.create(ids.next(), new NewMessage("alice", "bob", text));
        redis.xadd(StreamEntries.STREAM, StreamEntries.fields(message));
        return message;
    }

    private long[] storedRows() throws SQLException {
        return place.count();
    }

    private boolean stored(Message message) {
        try {
            Message read = service.store().read(reads -> reads.byId(message.id()));
            assertThat(read == null || read.equals(message)).as("stored as appended").isTrue();
            return read != null;
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    /** Entries pending in the group; -1 until a worker has created it. */
    private long pending() {
        try {
            return redis.xpending(StreamEntries.STREAM, StreamEntries.GROUP).getCount();
        } catch (RedisCommandExecutionException e) {
            assertThat(e.getMessage()).startsWith("NOGROUP");
            return -1;
        }
    }

    @Test
    void anEntryThatIsNotAMessageIsDeadLetteredAtOnceWithItsReasonAndCounted() {
        redis.xadd(StreamEntries.STREAM, Map.of("id", "not-a-uuid", "from", "a", "to", "b", "message", "c"));
        Message good = append("good");
        service.startWorker(redisConnections.openPubSub(), FAST);
        Await.until("the good message stored", () -> stored(good));
        Await.until("the bad one dead-lettered", () -> redis.xlen(StreamEntries.DEAD) == 1);
        StreamMessage<String, String> letter = redis.xrange(StreamEntries.DEAD, io.lettuce.core.Range.create("-", "+")).getFirst();
        assertThat(letter.getBody()).containsEntry("id", "not-a-uuid").containsEntry("dead:deliveries", "0")
            .containsKey("dead:entry");
        assertThat(letter.getBody().get("dead:reason")).startsWith("id is not a UUIDv7");
        Await.until("both acknowledged", () -> pending() == 0);
        assertThat(service.streamMetrics().deadLetters()).isEqualTo(1);
    }

    @Test
    void eachStoredEntryCountsItsTimeFromXaddToXackInTheStoreLagHistogram() {
        Message older = Message.create(ids.next(), new NewMessage("alice", "bob", "2 s before its XACK"));
        redis.xadd(StreamEntries.STREAM, new XAddArgs().id("1699999998030-0"), StreamEntries.fields(older));
        Message newer = Message.create(ids.next(), new NewMessage("alice", "bob", "30 ms before its XACK"));
        redis.xadd(StreamEntries.STREAM, new XAddArgs().id("1700000000000-0"), StreamEntries.fields(newer));
        Clock acknowledgedAt = Clock.fixed(Instant.ofEpochMilli(1_700_000_000_030L), ZoneOffset.UTC);
        service.startWorker(redisConnections.openPubSub(), FAST.withClock(acknowledgedAt));
        Await.until("both acknowledged", () -> pending() == 0 && service.streamMetrics().stored() == 2);

        HistogramSnapshot lag = (HistogramSnapshot) service.streamMetrics().collect().stream()
            .filter(m -> m.getMetadata().getName().equals("hotpath_messages_stream_store_lag_seconds")).findFirst()
            .orElseThrow();
        ClassicHistogramBuckets buckets = lag.getDataPoints().getFirst().getClassicBuckets();
        for (int i = 0; i < buckets.size(); i++) {
            double upTo = buckets.getUpperBound(i);
            long expected = upTo == 0.05 || upTo == 2.5 ? 1 : 0;
            assertThat(buckets.getCount(i)).as("entries in the bucket up to " + upTo).isEqualTo(expected);
        }
    }

    @Test
    void anEntryWhoseInsertKeepsFailingIsDeadLetteredAfterFiveDeliveries() {
        AtomicInteger poisonTries = new AtomicInteger();
        RowInserter failingPoison = (store, transaction, message) -> {
            if (message.message().equals("poison")) {
                poisonTries.incrementAndGet();
                // SQLITE_CONSTRAINT, SQLSTATE class 23: the row's own fault in either store
                throw new SQLException("row refused", "23000", 19);
            }
            store.insert(transaction, message);
        };
        Message poison = append("poison");
        Message good = append("good");
        service.startWorker(redisConnections.openPubSub(), FAST.withInserter(failingPoison));
        Await.until("the poison dead-lettered", () -> redis.xlen(StreamEntries.DEAD) == 1);
        assertThat(stored(good)).isTrue();
        assertThat(stored(poison)).isFalse();
        // PostgreSQL tries a failing row twice a delivery: once in the batch, whose transaction that aborts,
        // then again with a savepoint per row
        int triesPerDelivery = service.store().failedStatementAbortsTransaction() ? 2 : 1;
        assertThat(poisonTries.get()).isEqualTo(StreamWorker.MAX_DELIVERIES * triesPerDelivery);
        Map<String, String> letter = redis.xrange(StreamEntries.DEAD, io.lettuce.core.Range.create("-", "+")).getFirst().getBody();
        assertThat(letter).containsEntry("id", poison.id().toString()).containsEntry("dead:deliveries", "5");
        assertThat(letter.get("dead:reason")).contains("row refused");
        // the worker acknowledges, then drops the failure count, then counts the letter: await the last
        Await.until("nothing pending, the letter counted", () -> pending() == 0
            && service.streamMetrics().deadLetters() > 0);
        assertThat(redis.exists(StreamEntries.FAILURES)).as("failure counts removed").isZero();
        assertThat(service.streamMetrics().deadLetters()).isEqualTo(1);
    }

    @Test
    void deliveriesWhileTheStoreFailsDoNotCountAgainstAnEntry() {
        AtomicInteger storeFailures = new AtomicInteger(2 * StreamWorker.MAX_DELIVERIES);
        RowInserter busyStore = (store, transaction, message) -> {
            if (storeFailures.getAndDecrement() > 0) {
                // SQLITE_BUSY, and a class PostgreSQL's rows never raise: the store's fault in either
                throw new SQLException("database is locked", "HY000", 5);
            }
            store.insert(transaction, message);
        };
        Message message = append("patient");
        service.startWorker(redisConnections.openPubSub(), FAST.withInserter(busyStore));
        Await.until("the message stored once the store is back", () -> stored(message));
        Await.until("acknowledged", () -> pending() == 0);
        assertThat(redis.xlen(StreamEntries.DEAD)).isZero();
        assertThat(service.streamMetrics().deadLetters()).isZero();
    }

    @Test
    void aWorkerThatDiesBetweenCommitAndAckLeavesItsEntriesToAnotherWhichStoresEachOnce() throws SQLException {
        List<Message> messages = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            messages.add(append("crash " + i));
        }
        AtomicBoolean crashed = new AtomicBoolean();
        StreamWorker first = service.startWorker(redisConnections.openPubSub(), FAST.withAfterCommit(() -> {
            if (crashed.compareAndSet(false, true)) {
                throw new StreamWorker.Crash();
            }
        }));
        Await.until("the first worker dead", () -> !first.running());
        long[] rows = storedRows();
        assertThat(rows[0]).as("committed before the crash").isEqualTo(300);
        assertThat(pending()).as("but never acknowledged").isEqualTo(300);

        try (StreamWorker second = new StreamWorker(redisConnections.openPubSub(), service.writer(), service.store(),
                service.streamMetrics(), FAST)) {
            assertThat(second.consumer()).isNotEqualTo(first.consumer());
            Await.until("the dead worker's entries claimed and acknowledged", () -> pending() == 0);
        }
        for (Message m : messages) {
            assertThat(stored(m)).isTrue();
        }
        assertThat(storedRows()).containsExactly(300, 300);
        assertThat(redis.xlen(StreamEntries.DEAD)).isZero();
    }

    @Test
    void theStreamIsTrimmedOnlyBelowWhatIsStillPending() {
        for (int i = 0; i < 10; i++) {
            append("trim " + i);
        }
        service.startWorker(redisConnections.openPubSub(), FAST);
        Await.until("all stored and trimmed", () -> pending() == 0 && redis.xlen(StreamEntries.STREAM) == 0);
        Message late = append("late");
        Await.until("the late one stored", () -> stored(late));
        Await.until("trimmed again", () -> redis.xlen(StreamEntries.STREAM) == 0);
        Await.until("measured", () -> service.streamMetrics().lag == 0 && service.streamMetrics().pending == 0
            && service.streamMetrics().length == 0);
    }
}
