package dev.hotpath.loadgen.internal;

import dev.hotpath.loadgen.ErrorKind;
import dev.hotpath.loadgen.Mode;
import dev.hotpath.loadgen.RunConfig;
import dev.hotpath.loadgen.UsersModel;
import dev.hotpath.loadgen.Workload;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One generator connection: sends what its mode says, reads and checks every answer in order, and
 * counts everything into the {@link Stats} of the phase the request was sent in, which it shares with
 * the other connections of its event loop (a histogram per connection would cost more than the
 * connection). Confined to its event loop.
 *
 * <p>Saturate mode sends {@code pipeline} requests in one write and the next batch when all are
 * answered; every request of a batch is recorded with the batch's latency (send to last answer), never
 * a share of it. Rate mode owns arrivals {@code index, index + connections, ...} of the shared
 * {@link Schedule}, wakes at each one's due time (one periodic timer, {@link PeriodicWakes}), and
 * sends it at once when fewer than {@code pipeline} are in flight, else queues it (bounded; a full
 * queue is a counted drop). Latency runs from the scheduled time, so a slow answer delays nothing and
 * hides nothing. Users mode is one virtual user per connection ({@link UsersModel}): one request at a
 * time, a think time after each answer.
 *
 * <p>The connection is done (its latch counted down once) when it will send nothing more and owes
 * nothing, or when it is closed.
 */
public final class LoadConnection extends ChannelInboundHandlerAdapter {
    /**
     * Rate mode wakes at most this often per connection and sends everything due by then: a timer per
     * request would cost more than the request at a million a second. The wait counts in the latency
     * (measured from the scheduled time) and the send lag, never hidden.
     */
    private static final long MIN_WAKE_NANOS = 50_000;
    /** Rate mode: how long a connection lets arrivals gather before it writes them, see the constructor. */
    private final long wakeNanos;
    /** Rate mode: when the current wake-up was meant to happen; its lateness is the generator's own lag. */
    private long intendedWake;
    /** Rate mode: the fires of {@link #wakeTimer}; null in the other modes. */
    private final PeriodicWakes wakes;
    /** Rate mode: the one periodic timer that wakes this connection, while it runs. */
    private ScheduledFuture<?> wakeTimer;
    /** The timer's callback, made once: a method reference per scheduling would be an allocation each. */
    private final Runnable onWake = this::wake;

    private final RunConfig config;
    private final Workload workload;
    private final SplittableRandom random;
    private final CountDownLatch connected;
    private final CountDownLatch done;
    private Schedule schedule;
    private final ResponseParser parser = new ResponseParser();
    private final Stats measured;
    /** The warm-up's and the measured period's counts, indexed by {@link Schedule#phaseOf}. */
    private final Stats[] phases;

    private final long[] tags;
    private final long[] dueAt;
    private final long[] sentAt;
    private int head;
    private int inFlight;
    private final long[] queuedTags;
    private final long[] queuedDue;
    private int queueHead;
    private int queued;

    private ChannelHandlerContext ctx;
    private ByteBuf inbound;
    private ByteBuf outbound;
    private final int index;
    private long userStop;
    private long nextSeq;
    private long batchSentAt;
    private int batchSize;
    private boolean sending = true;
    private boolean finished;

    /**
     * @param stats where this connection counts, shared with the other connections of its event loop
     * @param connected counted down once the connection is open
     * @param done counted down once the connection has sent everything and owes nothing, or is closed
     */
    public LoadConnection(RunConfig config, Workload workload, int index, long seed, LoopStats stats,
                          CountDownLatch connected, CountDownLatch done) {
        this.config = config;
        this.measured = stats.measured();
        this.phases = new Stats[] {stats.warmup(), measured};
        this.workload = workload.forConnection(index);
        this.random = new SplittableRandom(seed);
        this.connected = connected;
        this.done = done;
        this.tags = new long[config.pipeline()];
        this.dueAt = new long[config.pipeline()];
        this.sentAt = new long[config.pipeline()];
        int queueCapacity = config.mode() == Mode.RATE ? config.queue() : 0;
        this.queuedTags = new long[queueCapacity];
        this.queuedDue = new long[queueCapacity];
        this.index = index;
        this.nextSeq = index;
        // Pipelined rate mode writes its arrivals in batches of about `pipeline`, as a pipelining client
        // does: it wakes once per `pipeline` of its arrivals. Each request's latency still runs from its
        // own scheduled time, so the gathering wait is measured, not hidden.
        this.wakeNanos = config.mode() != Mode.RATE ? 0
            : Math.max(MIN_WAKE_NANOS, (long) ((config.pipeline() - 1) * (double) config.connections() * 1e9 / config.rps()));
        this.wakes = config.mode() != Mode.RATE ? null
            : new PeriodicWakes(config.connections() * 1e9 / config.rps(), wakeNanos);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        connected.countDown();
    }

    /** Starts sending at the schedule's start; any thread, once every connection is open. */
    public void start(Schedule shared) {
        ctx.executor().execute(() -> {
            schedule = shared;
            long delay = shared.startNanos() - System.nanoTime();
            ctx.executor().schedule(this::begin, Math.max(0, delay), TimeUnit.NANOSECONDS);
        });
    }

    private void begin() {
        guarded(this::start);
    }

    /** Runs a step of this connection's own work; anything it throws ends the connection as a generator error. */
    private void guarded(Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            generatorFailed(e);
        }
    }

    private void generatorFailed(RuntimeException e) {
        fail(ErrorKind.GENERATOR_ERROR, e.toString());
    }

    private void start() {
        if (finished) {
            return;
        }
        switch (config.mode()) {
            case SATURATE -> sendBatch(System.nanoTime());
            case RATE -> {
                intendedWake = schedule.startNanos();
                tick();
            }
            case USERS -> {
                UsersModel model = config.users();
                long holdEnd = schedule.startNanos() + model.rampUp().toNanos() + config.duration().toNanos();
                userStop = holdEnd + model.stopOffsetNanos(index, config.connections());
                sendAsUserAt(schedule.startNanos() + model.startOffsetNanos(index, config.connections())
                    + workload.startDelayNanos(random));
                return;
            }
        }
        flush();
    }

    /**
     * Users mode: the next request of this user at {@code at}; when the user stops before then, it
     * stays connected and idle until its stop time, as a real user's open connection would.
     */
    private void sendAsUserAt(long at) {
        if (at >= userStop) {
            ctx.executor().schedule(this::stopSending, Math.max(0, userStop - System.nanoTime()), TimeUnit.NANOSECONDS);
            return;
        }
        ctx.executor().schedule(() -> guarded(() -> {
            long now = System.nanoTime();
            statsFor(at).recordGeneratorLag(now - at);
            long tag = workload.next(random);
            if (tag == Workload.NO_MORE) {
                stopSending();
                return;
            }
            send(tag, now, now);
            flush();
        }), Math.max(0, at - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    // ---- sending

    private void sendBatch(long now) {
        if (now >= schedule.endNanos()) {
            stopSending();
            return;
        }
        batchSize = 0;
        batchSentAt = now;
        for (int i = 0; i < config.pipeline(); i++) {
            long tag = workload.next(random);
            if (tag == Workload.NO_MORE) {
                break;
            }
            send(tag, now, now);
            batchSize++;
        }
        if (batchSize == 0) {
            stopSending();
        }
    }

    /** Rate mode: sends or queues every arrival due by now, then sleeps until the next one. */
    private void tick() {
        if (!sending) {
            return;
        }
        long now = System.nanoTime();
        statsFor(intendedWake).recordGeneratorLag(now - intendedWake);
        while (true) {
            long due = schedule.dueNanos(nextSeq);
            if (due >= schedule.endNanos()) {
                stopSending();
                return;
            }
            if (due > now) {
                wakeFor(due, Math.max(due, now + wakeNanos));
                return;
            }
            long tag = workload.next(random);
            if (tag == Workload.NO_MORE) {
                stopSending();
                return;
            }
            Stats stats = statsFor(due);
            if (inFlight < config.pipeline()) {
                send(tag, due, now);
            } else if (queued < queuedTags.length) {
                int slot = (queueHead + queued++) % queuedTags.length;
                queuedTags[slot] = tag;
                queuedDue[slot] = due;
            } else {
                stats.dropped++;
                if (stats.wouldNote(now)) {
                    stats.noteFirst("dropped: request due at +" + (due - schedule.startNanos()) / 1_000_000
                        + " ms found " + inFlight + " in flight and the queue of " + queuedTags.length + " full", now);
                }
            }
            nextSeq += config.connections();
        }
    }

    /** Keeps the periodic timer when it wakes this connection in time for {@code due}, else starts it anew. */
    private void wakeFor(long due, long wanted) {
        if (wakes.serves(due, wanted)) {
            return;
        }
        stopWaking();
        // From the clock now, not `now`: the tick that asks may have run a while, and a timer anchored
        // that much early would be that much late at every fire until it is anchored again.
        long delay = Math.max(0, wanted - System.nanoTime());
        wakeTimer = ctx.executor().scheduleAtFixedRate(onWake, delay, wakes.periodNanos(), TimeUnit.NANOSECONDS);
        wakes.anchoredAt(wanted);
    }

    /** The periodic timer fired. Not through {@link #guarded}, whose callback would be an allocation a wake-up. */
    private void wake() {
        intendedWake = wakes.fired();
        try {
            tick();
            flush();
        } catch (RuntimeException e) {
            generatorFailed(e);
        }
    }

    private void stopWaking() {
        if (wakeTimer != null) {
            wakeTimer.cancel(false);
            wakeTimer = null;
            wakes.stopped();
        }
    }

    private void send(long tag, long due, long now) {
        int slot = (head + inFlight++) % tags.length;
        tags[slot] = tag;
        dueAt[slot] = due;
        sentAt[slot] = now;
        Stats stats = statsFor(due);
        stats.attempted++;
        stats.recordSendLag(now - due);
        if (outbound == null) {
            outbound = ctx.alloc().ioBuffer(256 * config.pipeline());
        }
        workload.write(tag, outbound);
    }

    private void flush() {
        if (outbound != null && ctx != null) {
            ByteBuf batch = outbound;
            outbound = null;
            ctx.writeAndFlush(batch, ctx.voidPromise());
        }
    }

    private void stopSending() {
        sending = false;
        stopWaking();
        maybeDone();
    }

    // ---- receiving

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf data = (ByteBuf) msg;
        if (finished) {
            data.release();
            return;
        }
        inbound = inbound == null ? data : ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(ctx.alloc(), inbound, data);
        // Not through guarded(): its callback would be an allocation an answer.
        try {
            while (!finished && inbound.isReadable()) {
                ResponseParser.Result result = parser.parse(inbound);
                if (result == ResponseParser.Result.NEED_MORE) {
                    break;
                }
                if (result == ResponseParser.Result.ERROR) {
                    fail(ErrorKind.PROTOCOL_ERROR, parser.error());
                    break;
                }
                onResponse(parser.view());
            }
        } catch (RuntimeException e) {
            generatorFailed(e);
        }
        if (inbound != null && !inbound.isReadable()) {
            inbound.release();
            inbound = null;
        }
        flush();
    }

    private void onResponse(ResponseView response) {
        long now = System.nanoTime();
        if (inFlight == 0) {
            fail(ErrorKind.PROTOCOL_ERROR, "a response arrived for no request");
            return;
        }
        long tag = tags[head];
        long due = dueAt[head];
        head = (head + 1) % tags.length;
        inFlight--;
        int phase = schedule.phaseOf(due);
        Stats stats = phases[phase];
        switch (workload.check(tag, response)) {
            case OK -> stats.ok++;
            case PENDING -> { }
            case UNEXPECTED_STATUS -> {
                stats.unexpectedStatus++;
                if (stats.wouldNote(now)) {
                    stats.noteFirst("unexpected status: " + workload.describe(tag, response), now);
                }
            }
            case MISMATCH -> {
                stats.mismatches++;
                if (stats.wouldNote(now)) {
                    stats.noteFirst("mismatch: " + workload.describe(tag, response), now);
                }
            }
        }
        int second = schedule.secondOfPhase(phase, now);
        stats.countAnswer(second);
        if (config.mode() != Mode.SATURATE) {
            stats.recordLatency(now - due, 1, second);
        } else if (inFlight == 0) {
            stats.recordLatency(now - batchSentAt, batchSize, second);
        }
        if (response.closes()) {
            fail(ErrorKind.CONNECTION_CLOSED, "the server answered with Connection: close");
            return;
        }
        if (config.mode() == Mode.USERS) {
            if (sending) {
                long think = workload.afterAnswer(tag, random);
                if (think < 0) {
                    UsersModel model = config.users();
                    long min = model.thinkMin().toNanos();
                    think = min + random.nextLong(model.thinkMax().toNanos() - min + 1);
                }
                sendAsUserAt(now + think);
            }
        } else if (config.mode() == Mode.RATE) {
            // Not gated on `sending`: a queued arrival was due before the schedule ended, so it is owed
            // even when the schedule has no more arrivals to give.
            if (queued > 0) {
                long queuedTag = queuedTags[queueHead];
                long queuedAt = queuedDue[queueHead];
                queueHead = (queueHead + 1) % queuedTags.length;
                queued--;
                send(queuedTag, queuedAt, now);
            }
        } else {
            workload.afterAnswer(tag, random);
            if (inFlight == 0 && sending) {
                sendBatch(now);
            }
        }
        maybeDone();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (!finished) {
            fail(ErrorKind.CONNECTION_CLOSED, "the server closed the connection");
        }
        release();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!finished) {
            fail(ErrorKind.CONNECTION_CLOSED, String.valueOf(cause.getMessage()));
        }
        ctx.close();
    }

    // ---- ending

    private void maybeDone() {
        if (!sending && inFlight == 0 && queued == 0 && !finished) {
            finished = true;
            done.countDown();
        }
    }

    /** Counts what is still owed as {@code kind} and ends the connection. */
    private void fail(ErrorKind kind, String description) {
        if (finished) {
            return;
        }
        long now = System.nanoTime();
        long owed = Math.max(1, inFlight);
        Stats stats = inFlight > 0 ? statsFor(dueAt[head]) : measured;
        stats.error(kind, owed, description, now);
        dropQueued(now, "queued when the connection ended");
        sending = false;
        stopWaking();
        inFlight = 0;
        finished = true;
        done.countDown();
        if (ctx != null) {
            ctx.close();
        }
    }

    /** After the drain period: whatever is still owed is a timeout. Runs on the connection's loop. */
    public void expire() {
        if (finished || ctx == null) {
            return;
        }
        long now = System.nanoTime();
        if (inFlight > 0) {
            statsFor(dueAt[head]).error(ErrorKind.TIMEOUT, inFlight, "no answer by the end of the drain period", now);
        }
        dropQueued(now, "still queued at the end of the drain period");
        sending = false;
        stopWaking();
        inFlight = 0;
        finished = true;
        done.countDown();
        ctx.close();
    }

    private void dropQueued(long now, String why) {
        while (queued > 0) {
            Stats stats = statsFor(queuedDue[queueHead]);
            stats.dropped++;
            if (stats.wouldNote(now)) {
                stats.noteFirst("dropped: " + why, now);
            }
            queueHead = (queueHead + 1) % queuedTags.length;
            queued--;
        }
    }

    private void release() {
        if (inbound != null) {
            inbound.release();
            inbound = null;
        }
        if (outbound != null) {
            outbound.release();
            outbound = null;
        }
    }

    private Stats statsFor(long due) {
        return schedule == null ? measured : phases[schedule.phaseOf(due)];
    }

    /** Closes the connection at the end of the run, on its loop. */
    public void close() {
        if (ctx != null) {
            ctx.executor().execute(() -> {
                finished = true;
                stopWaking();
                ctx.close();
            });
        }
    }

    /** Runs {@code action} on the connection's loop; false when it never connected. */
    public boolean onLoop(Runnable action) {
        if (ctx == null) {
            return false;
        }
        ctx.executor().execute(action);
        return true;
    }
}
