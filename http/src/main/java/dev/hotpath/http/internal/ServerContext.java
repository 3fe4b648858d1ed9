package dev.hotpath.http.internal;

import dev.hotpath.http.ServerLimits;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.EventExecutor;
import java.time.Clock;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * State shared by every connection of one server: configuration, router, the {@code Date} line, the
 * per-loop states, and the two server-wide counts that admission needs (open connections, async
 * requests in flight). Those two are the only atomics a request can touch, and only async requests
 * and connection setup touch them.
 */
public final class ServerContext {
    final ServerLimits limits;
    final Router router;
    final Clock clock;
    final HttpDate date;
    private final Map<EventExecutor, LoopState> loops;
    private final AtomicInteger openConnections = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Object drainLock = new Object();
    volatile boolean draining;

    public ServerContext(ServerLimits limits, Router router, Clock clock, Iterable<EventExecutor> executors) {
        this.limits = limits;
        this.router = router;
        this.clock = clock;
        this.date = new HttpDate(clock);
        Map<EventExecutor, LoopState> map = new IdentityHashMap<>();
        for (EventExecutor executor : executors) {
            map.put(executor, new LoopState(limits, router, executor, clock));
        }
        this.loops = Collections.unmodifiableMap(map);
    }

    public HttpDate date() {
        return date;
    }

    /** Where the handlers on the loop that {@code executor} drives leave work for the end of its turn. */
    public Executor turnTasks(EventExecutor executor) {
        return loops.get(executor).turn;
    }

    LoopState loop(EventLoop eventLoop) {
        return loops.get(eventLoop);
    }

    Collection<LoopState> loops() {
        return loops.values();
    }

    /** Runs the deadline sweep of the loop that {@code executor} drives; call it on that loop. */
    public void sweep(EventExecutor executor) {
        long now = clock.millis();
        loops.get(executor).forEach(c -> c.checkDeadlines(now));
    }

    /** Starts draining on the loop that {@code executor} drives: idle connections close now. */
    public void beginDrain(EventExecutor executor) {
        draining = true;
        loops.get(executor).forEach(Connection::closeIfIdle);
    }

    /** Closes every connection of the loop that {@code executor} drives, whatever it is doing. */
    public void closeAll(EventExecutor executor) {
        loops.get(executor).forEach(Connection::closeNow);
    }

    boolean tryOpenConnection() {
        if (openConnections.incrementAndGet() > limits.maxConnections()) {
            openConnections.decrementAndGet();
            return false;
        }
        return true;
    }

    void connectionClosed() {
        if (openConnections.decrementAndGet() == 0 && draining) {
            synchronized (drainLock) {
                drainLock.notifyAll();
            }
        }
    }

    public int openConnections() {
        return openConnections.get();
    }

    /** Waits until every connection closed or {@code deadlineNanos} (of {@link System#nanoTime()}) passed. */
    public boolean awaitNoConnections(long deadlineNanos) throws InterruptedException {
        synchronized (drainLock) {
            while (openConnections.get() > 0) {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                drainLock.wait(Math.max(1, left / 1_000_000));
            }
            return true;
        }
    }

    boolean tryAdmitAsync() {
        if (inFlight.incrementAndGet() > limits.maxInFlight()) {
            inFlight.decrementAndGet();
            return false;
        }
        return true;
    }

    void asyncCompleted() {
        inFlight.decrementAndGet();
    }

    public int inFlight() {
        return inFlight.get();
    }
}
