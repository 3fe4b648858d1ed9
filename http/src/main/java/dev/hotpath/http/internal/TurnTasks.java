package dev.hotpath.http.internal;

import io.netty.util.concurrent.EventExecutor;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * The tasks one event loop's handlers leave for the end of the loop's turn ({@code EventLoops.current()}):
 * a turn's writes committed together, its look-ups sent in one write, the answers those complete.
 *
 * <p>Why not only the loop's own task queue: Netty runs it after its I/O handler returns, and the
 * io_uring handler returns only when a pass over its completion queue finds nothing new, or after 128
 * passes. Under steady load each pass finds the answers to the previous pass's writes, so one turn can
 * last tens of milliseconds, and every task left for its end waits that long. In the social API's
 * closed-loop mix a like or a post waited 11 ms at the median and 36 ms at p99 for a commit that costs
 * tens of microseconds (epoll, whose handler makes one pass, 1.4 and 6 ms). So the queue also runs
 * between two reads ({@link #runIfDue}), once its first task has waited into another millisecond of the
 * server's clock: a task waits about a millisecond at most while the loop is busy, and at most one
 * early run a millisecond costs what batching saves. A Netty task queued with the first task runs
 * the rest at the end of the turn, as before, when the turn is short.
 *
 * <p>Tasks run in the order given; a task given while the queue runs runs in the same run (an answer
 * a commit completed goes out with it). Confined to the loop but for {@link #handOver}:
 * {@link #execute} from another thread hands the task to the loop's own queue.
 *
 * <p>Answers completed on another thread (a writer's committed batch) come through {@link #handOver}:
 * a Netty task, which wakes a waiting loop, and a queue the loop also empties at its next read, since
 * nothing is gained by holding them back. Its cost: a queue node per hand-over (one per writer batch
 * and loop with {@link CompletionBatch}), and one volatile read per read while nothing waits.
 */
final class TurnTasks implements Executor {
    private static final System.Logger LOG = System.getLogger(TurnTasks.class.getName());
    private final EventExecutor loop;
    private final Clock clock;
    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
    private final Runnable atTurnEnd = this::runAtTurnEnd;
    private final Queue<Runnable> handedOver = new ConcurrentLinkedQueue<>();
    private final Runnable runHandedOver = this::runHandedOver;
    private long firstQueuedAt;
    private boolean turnEndScheduled;
    private boolean running;

    TurnTasks(EventExecutor loop, Clock clock) {
        this.loop = loop;
        this.clock = clock;
    }

    /**
     * Queues {@code task} for the end of this turn, or sooner ({@link #runIfDue}).
     *
     * @throws java.util.concurrent.RejectedExecutionException when the loop is shut down (nothing is queued)
     */
    @Override
    public void execute(Runnable task) {
        if (!loop.inEventLoop()) {
            loop.execute(task);
            return;
        }
        if (running) { // the run under way takes it: no Netty task, which a loop shutting down refuses
            tasks.add(task);
            return;
        }
        if (tasks.isEmpty()) {
            if (!turnEndScheduled) {
                loop.execute(atTurnEnd);
                turnEndScheduled = true;
            }
            firstQueuedAt = clock.millis();
        }
        tasks.add(task);
    }

    /**
     * From any thread: runs {@code task} on the loop at its next read or at the end of its turn,
     * whichever comes first; dropped when the loop is shut down (its connections are gone with it).
     */
    void handOver(Runnable task) {
        handedOver.add(task);
        if (!wakeForHandOver()) {
            handedOver.remove(task);
        }
    }

    /**
     * {@link #handOver} for several tasks, in their order, with one wake-up of the loop. The tasks are
     * copied into the queue before this returns, so the caller may reuse the list; added one by one
     * (the loop may start on the first while the last is added, and wakes for them all), since
     * {@code addAll} made an iterator per call.
     */
    void handOver(List<Runnable> given) {
        for (int i = 0; i < given.size(); i++) {
            handedOver.add(given.get(i));
        }
        if (!wakeForHandOver()) {
            handedOver.removeAll(given);
        }
    }

    /** Gives the loop the task that runs what was handed over; false when the loop is shut down. */
    private boolean wakeForHandOver() {
        try {
            loop.execute(runHandedOver);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /**
     * Runs what other threads handed over, and the queue when its first task was given before this
     * millisecond of the server's clock (read here, so that no caller can pass a stale time). Called
     * on the loop between two reads, where no connection is part way through a request.
     */
    void runIfDue() {
        if (!handedOver.isEmpty()) {
            runHandedOver();
        }
        if (!tasks.isEmpty() && !running && clock.millis() != firstQueuedAt) {
            runAll();
        }
    }

    private void runHandedOver() {
        runEach(handedOver);
    }

    private void runAtTurnEnd() {
        turnEndScheduled = false;
        if (!running) {
            runAll();
        }
    }

    private void runAll() {
        running = true;
        try {
            runEach(tasks);
        } finally {
            running = false;
        }
    }

    /**
     * Runs and removes every task of {@code queue}, those added meanwhile too. One that throws, even an
     * {@link Error}, is logged and the rest still run, as Netty's own task queue does: the tasks after
     * it are other connections' answers, and a task left in the queue would wait for a read that a
     * closed-loop client, waiting for that very answer, never sends.
     */
    private static void runEach(Queue<Runnable> queue) {
        Runnable task;
        while ((task = queue.poll()) != null) {
            try {
                task.run();
            } catch (Throwable e) {
                LOG.log(System.Logger.Level.WARNING, "a task left for the event loop failed", e);
            }
        }
    }
}
