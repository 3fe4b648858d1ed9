package dev.hotpath.apps.messages.internal;

import dev.hotpath.store.GroupCommitWriter;
import dev.hotpath.store.OwnedThreads;
import io.lettuce.core.Consumer;
import io.lettuce.core.Range;
import io.lettuce.core.RedisBusyException;
import io.lettuce.core.RedisException;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAutoClaimArgs;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.XTrimArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.models.stream.ClaimedMessages;
import io.lettuce.core.models.stream.PendingMessages;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Stores the stream's messages: one thread reads entries for the consumer group
 * {@value StreamEntries#GROUP} ({@code XREADGROUP COUNT 8192 BLOCK 100 >}), stores each batch through
 * the group-commit writer as one write, and only after its commit acknowledges it ({@code XACK}). So
 * an entry is acknowledged only once its message is durable; a crash between the commit and the
 * {@code XACK} leaves it pending, and it is stored again later, which the store's insert (a stored id
 * is skipped) makes a no-op.
 *
 * <p>Recovery: at start and every {@code recoveryInterval}, and at once after a store failure, the
 * worker first re-reads its own pending entries (id {@code 0}) and then claims every other consumer's
 * entry idle for {@code claimMinIdle} ({@code XAUTOCLAIM}), so the entries of a worker that died are
 * stored by another. The group is created once, with {@code MKSTREAM} from id 0, so entries appended
 * before any worker existed are drained.
 *
 * <p>Failures: an entry that is not a message ({@link StreamEntries#parse}) is copied to
 * {@value StreamEntries#DEAD} with its reason and acknowledged at once. A row whose insert fails for a
 * reason of its own is counted in {@value StreamEntries#FAILURES} (in Redis, so the count outlives the
 * worker) and left pending; at its {@value #MAX_DELIVERIES}th failure it is dead-lettered the same way.
 * A failure of the store (the whole write fails, see {@link MessageStore#isStoreFault}) counts against no entry: the
 * worker backs off, doubling from {@link #MIN_BACKOFF} to {@link #MAX_BACKOFF}, and re-reads its
 * pending entries. Redis failing is treated the same way.
 *
 * <p>Trimming: every {@code trimInterval} the worker measures the stream (length, lag, pending) into
 * {@link StreamMetrics} and trims with {@code XTRIM MINID} below the oldest entry still pending or not
 * yet delivered, so no entry is trimmed before it is acknowledged.
 *
 * <p>The worker's connection is its own (it blocks in {@code XREADGROUP}); only its thread uses it.
 */
public final class StreamWorker implements AutoCloseable {
    /**
     * Entries per {@code XREADGROUP} (and per {@code XAUTOCLAIM}): at most one write of this many rows.
     * Large, because each row dirties its recipient's leaf of {@code (to_user, id)} and a batch pays once per
     * distinct leaf, not per row: among 1,000 recipients drawn at random 2,048 rows touch about 870 leaves
     * (2.4 rows a leaf), 8,192 nearly all 1,000 (8.2). Cost: a full batch holds the writer about a fifth of a
     * second (8,192 rows at the ~37,000 a second a worker drains), which a concurrent {@code POST /message}
     * waits; only a backlog makes full batches.
     */
    public static final int BATCH = 8192;
    /** How long one {@code XREADGROUP} waits for new entries: the bound on noticing {@link #close()}. */
    public static final Duration BLOCK = Duration.ofMillis(100);
    /** An entry whose own insert failed this many times is dead-lettered. */
    public static final int MAX_DELIVERIES = 5;
    /** Another consumer's pending entry idle this long is taken over: a live worker acks in far less. */
    public static final Duration CLAIM_MIN_IDLE = Duration.ofSeconds(30);
    /** How often the worker re-reads its pending entries and claims idle ones. */
    public static final Duration RECOVERY_INTERVAL = Duration.ofSeconds(5);
    /** How often the worker measures and trims the stream. */
    public static final Duration TRIM_INTERVAL = Duration.ofSeconds(10);
    public static final Duration MIN_BACKOFF = Duration.ofMillis(50);
    public static final Duration MAX_BACKOFF = Duration.ofSeconds(5);
    private static final System.Logger LOG = System.getLogger(StreamWorker.class.getName());

    /**
     * When and how the worker does what it does; {@link #defaults()} in production.
     *
     * @param inserter how one row is inserted: a seam for tests
     * @param afterCommit runs between a batch's commit and its {@code XACK}: a seam where a test
     *     "crashes" the worker by throwing {@link Crash}
     * @param clock the time of each {@code XACK}, against which its entries' store lag is measured
     */
    public record Settings(Duration claimMinIdle, Duration recoveryInterval, Duration trimInterval,
                           RowInserter inserter, Runnable afterCommit, Clock clock) {
        public static Settings defaults() {
            return new Settings(CLAIM_MIN_IDLE, RECOVERY_INTERVAL, TRIM_INTERVAL, RowInserter.STORE, () -> { },
                Clock.systemUTC());
        }

        public Settings withTimes(Duration claimMinIdle, Duration recoveryInterval, Duration trimInterval) {
            return new Settings(claimMinIdle, recoveryInterval, trimInterval, inserter, afterCommit, clock);
        }

        public Settings withInserter(RowInserter inserter) {
            return new Settings(claimMinIdle, recoveryInterval, trimInterval, inserter, afterCommit, clock);
        }

        public Settings withAfterCommit(Runnable afterCommit) {
            return new Settings(claimMinIdle, recoveryInterval, trimInterval, inserter, afterCommit, clock);
        }

        public Settings withClock(Clock clock) {
            return new Settings(claimMinIdle, recoveryInterval, trimInterval, inserter, afterCommit, clock);
        }
    }

    /** Thrown by a test's {@code afterCommit} seam: the worker thread ends there, as if killed. */
    public static final class Crash extends RuntimeException {
        public Crash() {
            super("simulated crash between commit and XACK", null, false, false);
        }
    }

    private final StatefulRedisConnection<String, String> connection;
    private final RedisCommands<String, String> redis;
    private final GroupCommitWriter writer;
    private final MessageStore store;
    private final WriterObserver observer;
    private final StreamMetrics metrics;
    private final Settings settings;
    private final Consumer<String> consumer;
    private final CountDownLatch stop = new CountDownLatch(1);
    private final Thread thread;
    private long backoffNanos;

    /**
     * Starts the worker thread.
     *
     * @param connection a connection of the worker's own (it blocks on it); closed by {@link #close()}
     * @param writer the group-commit writer to store through (not closed here)
     * @param store the store that writer writes to: its insert, and which of its errors are its own
     */
    public StreamWorker(StatefulRedisConnection<String, String> connection, GroupCommitWriter writer,
                        MessageStore store, StreamMetrics metrics, Settings settings) {
        this(connection, writer, store, null, metrics, settings);
    }

    /** @param observer the writer's observer, told the size of each batch; or null */
    StreamWorker(StatefulRedisConnection<String, String> connection, GroupCommitWriter writer, MessageStore store,
                 WriterObserver observer, StreamMetrics metrics, Settings settings) {
        this.connection = connection;
        this.redis = connection.sync();
        this.writer = writer;
        this.store = store;
        this.observer = observer;
        this.metrics = metrics;
        this.settings = settings;
        this.consumer = Consumer.from(StreamEntries.GROUP, consumerName());
        this.thread = Thread.ofPlatform().name("messages-stream-worker").daemon(false).start(this::run);
    }

    /** Host, process id and a random part: unique per process, also for workers started again. */
    private static String consumerName() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            host = "host";
        }
        byte[] random = new byte[4];
        ThreadLocalRandom.current().nextBytes(random);
        return host + "-" + ProcessHandle.current().pid() + "-" + HexFormat.of().formatHex(random);
    }

    /** This worker's consumer name in the group. */
    public String consumer() {
        return consumer.getName();
    }

    /** Whether the thread still runs (false after {@link #close()} or a {@link Crash}). */
    public boolean running() {
        return thread.isAlive();
    }

    private void run() {
        boolean groupReady = false;
        long nextRecovery = System.nanoTime();
        long nextTrim = System.nanoTime() + settings.trimInterval().toNanos();
        while (stop.getCount() > 0) {
            try {
                if (!groupReady) {
                    createGroup();
                    groupReady = true;
                }
                if (System.nanoTime() - nextRecovery >= 0) {
                    recover();
                    nextRecovery = System.nanoTime() + settings.recoveryInterval().toNanos();
                }
                List<StreamMessage<String, String>> batch = redis.xreadgroup(consumer,
                    XReadArgs.Builder.count(BATCH).block(BLOCK), XReadArgs.StreamOffset.lastConsumed(StreamEntries.STREAM));
                process(batch, false);
                if (System.nanoTime() - nextTrim >= 0) {
                    measureAndTrim();
                    nextTrim = System.nanoTime() + settings.trimInterval().toNanos();
                }
                backoffNanos = 0;
            } catch (StoreDown e) {
                LOG.log(System.Logger.Level.WARNING, "messages store failed; the stream entries stay pending", e.getCause());
                nextRecovery = System.nanoTime();
                backOff();
            } catch (RedisException e) {
                if (String.valueOf(e.getMessage()).startsWith("NOGROUP")) {
                    groupReady = false; // the stream or its group was deleted: make them again
                }
                LOG.log(System.Logger.Level.WARNING, "Redis failed: " + e.getMessage());
                nextRecovery = System.nanoTime();
                backOff();
            } catch (Crash e) {
                return;
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "stream worker failed; going on", e);
                nextRecovery = System.nanoTime();
                backOff();
            }
        }
    }

    private void createGroup() {
        try {
            redis.xgroupCreate(XReadArgs.StreamOffset.from(StreamEntries.STREAM, "0"), StreamEntries.GROUP,
                XGroupCreateArgs.Builder.mkstream());
        } catch (RedisBusyException e) {
            // BUSYGROUP: created before, by this worker's predecessor or another worker
        }
    }

    /** Own pending entries from id 0, then others' idle ones, each stored as a batch. */
    private void recover() {
        String after = "0";
        while (stop.getCount() > 0) {
            List<StreamMessage<String, String>> mine = redis.xreadgroup(consumer, XReadArgs.Builder.count(BATCH),
                XReadArgs.StreamOffset.from(StreamEntries.STREAM, after));
            if (mine.isEmpty()) {
                break;
            }
            process(mine, true);
            after = mine.getLast().getId();
        }
        String cursor = "0-0";
        do {
            ClaimedMessages<String, String> claimed = redis.xautoclaim(StreamEntries.STREAM, new XAutoClaimArgs<String>()
                .consumer(consumer).minIdleTime(settings.claimMinIdle()).startId(cursor).count(BATCH));
            process(claimed.getMessages(), true);
            cursor = claimed.getId();
        } while (!cursor.equals("0-0") && stop.getCount() > 0);
    }

    /**
     * Stores {@code entries} and acknowledges them after the commit; dead-letters what cannot be stored.
     * {@code again}: the entries were delivered before (recovery), so their failure counts may exist.
     */
    private void process(List<StreamMessage<String, String>> entries, boolean again) {
        if (entries.isEmpty()) {
            return;
        }
        List<StoreEntries.Row> rows = new ArrayList<>(entries.size());
        List<String> gone = new ArrayList<>();
        for (StreamMessage<String, String> entry : entries) {
            if (entry.getBody() == null) {
                gone.add(entry.getId()); // deleted from the stream while pending: nothing to store
                continue;
            }
            try {
                rows.add(new StoreEntries.Row(entry.getId(), StreamEntries.parse(entry.getBody())));
            } catch (StreamEntries.Unparseable e) {
                deadLetter(entry.getId(), entry.getBody(), e.getMessage(), 0);
            }
        }
        if (!gone.isEmpty()) {
            redis.xack(StreamEntries.STREAM, StreamEntries.GROUP, gone.toArray(String[]::new));
        }
        if (rows.isEmpty()) {
            return;
        }
        metrics.batchSizes.record(rows.size());
        Exception[] failures = store(new StoreEntries(rows, store, settings.inserter(), observer));
        settings.afterCommit().run();
        List<String> stored = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            StoreEntries.Row row = rows.get(i);
            if (failures[i] == null) {
                stored.add(row.entryId());
                continue;
            }
            long count = redis.hincrby(StreamEntries.FAILURES, row.entryId(), 1);
            if (count >= MAX_DELIVERIES) {
                deadLetter(row.entryId(), StreamEntries.fields(row.message()),
                    "insert failed " + count + " times: " + failures[i], count);
            } else {
                LOG.log(System.Logger.Level.WARNING, "storing stream entry " + row.entryId() + " failed (" + count
                    + " of " + MAX_DELIVERIES + "): " + failures[i]);
            }
        }
        if (!stored.isEmpty()) {
            String[] ids = stored.toArray(String[]::new);
            redis.xack(StreamEntries.STREAM, StreamEntries.GROUP, ids);
            recordStoreLag(ids);
            metrics.stored.add(ids.length);
            if (again) {
                redis.hdel(StreamEntries.FAILURES, ids);
            }
        }
    }

    /** Offers the write until the writer takes it, then waits for its commit; StoreDown if nothing was stored. */
    private Exception[] store(StoreEntries write) {
        while (!writer.offer(write)) {
            if (stop.getCount() == 0) {
                throw new StoreDown(new IllegalStateException("stopping"));
            }
            backOff(); // the queue is full: the direct path has the writer's attention
        }
        try {
            return write.outcome().get();
        } catch (ExecutionException e) {
            metrics.storeFailures.increment();
            throw new StoreDown(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreDown(e);
        }
    }

    /**
     * The store lag of each acknowledged entry: now against the milliseconds of its id, which Redis took
     * from its clock at {@code XADD} (an id given by the client says what it says; a Redis on another
     * host adds the two clocks' difference, and one ahead of the worker's counts as no lag). Recorded
     * before the entries count as stored, so whoever sees them stored sees their lag too.
     */
    private void recordStoreLag(String[] ids) {
        long now = settings.clock().millis();
        for (String id : ids) {
            int dash = id.indexOf('-');
            if (dash > 0) { // Redis's ids are always "milliseconds-sequence"
                metrics.storeLag.record(Math.max(0, now - Long.parseLong(id, 0, dash, 10)) / 1000.0);
            }
        }
    }

    /** Copies the entry to the dead-letter stream with why, then acknowledges it; counted. */
    private void deadLetter(String entryId, Map<String, String> body, String reason, long deliveries) {
        Map<String, String> letter = new LinkedHashMap<>(body);
        letter.put("dead:entry", entryId);
        letter.put("dead:reason", reason);
        letter.put("dead:deliveries", Long.toString(deliveries));
        redis.xadd(StreamEntries.DEAD, letter);
        redis.xack(StreamEntries.STREAM, StreamEntries.GROUP, entryId);
        redis.hdel(StreamEntries.FAILURES, entryId);
        metrics.deadLetters.increment();
        LOG.log(System.Logger.Level.WARNING, "stream entry " + entryId + " dead-lettered: " + reason);
    }

    /**
     * Measures the stream into the metrics, then trims below the oldest entry still needed: the oldest
     * pending one, else the first after the group's last delivered id.
     */
    private void measureAndTrim() {
        metrics.length = redis.xlen(StreamEntries.STREAM);
        PendingMessages pending = redis.xpending(StreamEntries.STREAM, StreamEntries.GROUP);
        metrics.pending = pending.getCount();
        String lastDelivered = null;
        for (Object group : redis.xinfoGroups(StreamEntries.STREAM)) {
            Map<String, Object> fields = pairs((List<?>) group);
            if (StreamEntries.GROUP.equals(fields.get("name"))) {
                lastDelivered = (String) fields.get("last-delivered-id");
                Object lag = fields.get("lag");
                metrics.lag = lag instanceof Long l ? l : -1;
            }
        }
        String keepFrom;
        if (pending.getCount() > 0) {
            Range.Boundary<String> lower = pending.getMessageIds().getLower();
            keepFrom = lower.getValue();
        } else if (lastDelivered != null && !lastDelivered.equals("0-0")) {
            keepFrom = next(lastDelivered);
        } else {
            return;
        }
        redis.xtrim(StreamEntries.STREAM, XTrimArgs.Builder.minId(keepFrom));
    }

    /** The smallest stream id after {@code id} ({@code ms-seq}). */
    static String next(String id) {
        int dash = id.indexOf('-');
        long ms = Long.parseLong(id, 0, dash, 10);
        long seq = Long.parseUnsignedLong(id, dash + 1, id.length(), 10);
        return seq == -1L ? (ms + 1) + "-0" : ms + "-" + Long.toUnsignedString(seq + 1);
    }

    private static Map<String, Object> pairs(List<?> list) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i + 1 < list.size(); i += 2) {
            map.put(String.valueOf(list.get(i)), list.get(i + 1));
        }
        return map;
    }

    private void backOff() {
        backoffNanos = backoffNanos == 0 ? MIN_BACKOFF.toNanos() : Math.min(backoffNanos * 2, MAX_BACKOFF.toNanos());
        try {
            stop.await(backoffNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the thread (within one {@link #BLOCK} and the batch in hand), then closes the connection. */
    @Override
    public void close() {
        stop.countDown();
        boolean interrupted = OwnedThreads.awaitEnd(thread);
        connection.close();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** The store failed: nothing of the batch was stored; it stays pending. */
    private static final class StoreDown extends RuntimeException {
        StoreDown(Throwable cause) {
            super(cause == null ? "store failed" : cause.getMessage(), cause, false, false);
        }
    }
}
