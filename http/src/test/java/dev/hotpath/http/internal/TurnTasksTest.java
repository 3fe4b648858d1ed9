package dev.hotpath.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.testing.MutableClock;
import io.netty.channel.DefaultEventLoop;
import io.netty.util.concurrent.EventExecutor;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A turn's tasks run at the end of the turn, or between two reads once the first has waited into
 * another millisecond of the injected clock; each exactly once, in order. Every step that must happen
 * within one turn runs inside one task of the loop, so the end of the turn cannot come between them.
 */
class TurnTasksTest {
    private final EventExecutor loop = new DefaultEventLoop();
    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-02T17:00:00Z"));
    private final TurnTasks turn = new TurnTasks(loop, clock);
    private final List<String> ran = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** Runs {@code step} as one task of the loop, so as one part of one turn, and waits for it. */
    private void inOneTurn(Runnable step) {
        loop.submit(step).syncUninterruptibly();
    }

    private Runnable record(String name) {
        return () -> ran.add(name);
    }

    @Test
    void runsAtTheEndOfTheTurnInTheOrderGiven() {
        inOneTurn(() -> {
            turn.execute(record("a"));
            turn.execute(record("b"));
            turn.runIfDue(); // the same millisecond: not due
            assertThat(ran).as("nothing runs while the turn goes on").isEmpty();
        });
        inOneTurn(() -> { });
        assertThat(ran).containsExactly("a", "b");
    }

    @Test
    void runsBetweenReadsOnceTheFirstTaskWaitedIntoAnotherMillisecond() {
        inOneTurn(() -> {
            turn.execute(record("a"));
            clock.advance(Duration.ofMillis(1));
            turn.execute(record("b"));
            turn.runIfDue();
            assertThat(ran).as("run before the turn ends").containsExactly("a", "b");
            turn.execute(record("c"));
            turn.runIfDue();
            assertThat(ran).as("c was given in this millisecond").containsExactly("a", "b");
        });
        inOneTurn(() -> { });
        assertThat(ran).as("each once: the end of the turn runs only what is left").containsExactly("a", "b", "c");
    }

    @Test
    void aTaskGivenWhileTheQueueRunsRunsInTheSameRun() {
        inOneTurn(() -> {
            turn.execute(() -> {
                ran.add("commit");
                turn.execute(record("answer"));
                clock.advance(Duration.ofMillis(5));
                turn.runIfDue(); // no run inside a run
            });
            clock.advance(Duration.ofMillis(1));
            turn.runIfDue();
            assertThat(ran).containsExactly("commit", "answer");
        });
    }

    @Test
    void aFailingTaskDoesNotStopTheOthers() {
        inOneTurn(() -> {
            turn.execute(() -> {
                throw new IllegalStateException("expected by the test");
            });
            turn.execute(record("after"));
        });
        inOneTurn(() -> { });
        assertThat(ran).containsExactly("after");
    }

    @Test
    void anErrorInATaskNeitherStopsTheOthersNorLeavesTheQueueUnwoken() {
        inOneTurn(() -> {
            turn.execute(() -> {
                throw new StackOverflowError("expected by the test");
            });
            turn.execute(record("after"));
        });
        inOneTurn(() -> { });
        assertThat(ran).containsExactly("after");
        inOneTurn(() -> turn.execute(record("a later turn's")));
        inOneTurn(() -> { });
        assertThat(ran).as("the queue is woken again at the end of a later turn").containsExactly("after", "a later turn's");
    }

    @Test
    void aTaskGivenWhileTheQueueRunsAsksTheLoopForNothing() {
        AtomicInteger executes = new AtomicInteger();
        EventExecutor counting = new DefaultEventLoop() {
            @Override
            public void execute(Runnable task) {
                executes.incrementAndGet();
                super.execute(task);
            }
        };
        TurnTasks counted = new TurnTasks(counting, clock);
        try {
            counting.submit(() -> counted.execute(() -> {
                int before = executes.get();
                counted.execute(record("answer"));
                ran.add("loop tasks asked for during the run: " + (executes.get() - before));
            })).syncUninterruptibly();
            counting.submit(() -> { }).syncUninterruptibly();
            assertThat(ran).containsExactly("loop tasks asked for during the run: 0", "answer");
        } finally {
            counting.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @Test
    void aTaskFromAnotherThreadRunsOnTheLoop() {
        List<Boolean> onLoop = new CopyOnWriteArrayList<>();
        turn.execute(() -> onLoop.add(loop.inEventLoop()));
        inOneTurn(() -> { });
        assertThat(onLoop).containsExactly(true);
    }

    @Test
    void whatAnotherThreadHandsOverRunsAtTheNextReadOnce() {
        inOneTurn(() -> {
            Thread writer = Thread.ofPlatform().start(() -> turn.handOver(record("answer")));
            try {
                writer.join();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            turn.runIfDue();
            assertThat(ran).as("run before the turn ends, with no millisecond to wait").containsExactly("answer");
        });
        inOneTurn(() -> { });
        assertThat(ran).as("once: the loop's own task finds nothing left").containsExactly("answer");
    }

    @Test
    void whatIsHandedOverRunsOnTheLoopWhenNoReadComes() {
        List<Boolean> onLoop = new CopyOnWriteArrayList<>();
        turn.handOver(() -> onLoop.add(loop.inEventLoop()));
        inOneTurn(() -> { });
        assertThat(onLoop).containsExactly(true);
    }

    @Test
    void whatIsHandedOverToALoopShutDownIsDroppedAndTheGiverIsNotFailed() {
        EventExecutor stopped = new DefaultEventLoop();
        stopped.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        TurnTasks late = new TurnTasks(stopped, clock);
        late.handOver(record("one"));
        late.handOver(List.of(record("two"), record("three")));
        late.runIfDue(); // what a read would run, had the loop one more
        assertThat(ran).as("nothing kept for a loop that is gone").isEmpty();
    }
}
