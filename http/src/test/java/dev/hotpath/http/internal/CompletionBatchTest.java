package dev.hotpath.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.DefaultEventLoop;
import io.netty.util.concurrent.EventExecutor;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Drains scheduled inside a batch reach each loop once, after the batch, in the order they were scheduled. */
class CompletionBatchTest {
    private final EventExecutor loopA = new DefaultEventLoop();
    private final EventExecutor loopB = new DefaultEventLoop();
    private final TurnTasks turnA = new TurnTasks(loopA, Clock.systemUTC());
    private final TurnTasks turnB = new TurnTasks(loopB, Clock.systemUTC());
    private final List<String> ran = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        loopA.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        loopB.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** Waits until every task {@code loop} had before this one has run (its tasks run in order). */
    private static void settle(EventExecutor loop) {
        loop.submit(() -> { }).syncUninterruptibly();
    }

    @Test
    void handsEachLoopItsDrainsInOneTaskAfterTheBatch() {
        CompletionBatch.run(() -> {
            CompletionBatch.schedule(turnA, () -> ran.add("a1"));
            CompletionBatch.schedule(turnB, () -> ran.add("b1"));
            CompletionBatch.schedule(turnA, () -> ran.add("a2"));
            CompletionBatch.run(() -> CompletionBatch.schedule(turnA, () -> ran.add("a3 nested")));
            settle(loopA);
            settle(loopB);
            assertThat(ran).as("nothing reaches a loop while the batch runs").isEmpty();
        });
        settle(loopA);
        settle(loopB);
        assertThat(ran).containsSubsequence("a1", "a2", "a3 nested").contains("b1").hasSize(4);
    }

    /** A thread's batch is reused: each batch hands over its own drains once, none of an earlier one's again. */
    @Test
    void eachBatchOfAThreadHandsOverOnlyItsOwnDrains() {
        CompletionBatch.run(() -> {
            CompletionBatch.schedule(turnA, () -> ran.add("a1"));
            CompletionBatch.schedule(turnB, () -> ran.add("b1"));
        });
        settle(loopA);
        settle(loopB);
        CompletionBatch.run(() -> CompletionBatch.schedule(turnB, () -> ran.add("b2")));
        settle(loopB);
        CompletionBatch.run(() -> {
            CompletionBatch.schedule(turnB, () -> ran.add("b3"));
            CompletionBatch.schedule(turnA, () -> ran.add("a3"));
        });
        settle(loopA);
        settle(loopB);
        assertThat(ran).containsExactlyInAnyOrder("a1", "b1", "b2", "b3", "a3");
        assertThat(ran.subList(0, 2)).containsExactlyInAnyOrder("a1", "b1");
        assertThat(ran.get(2)).isEqualTo("b2");
        CompletionBatch.schedule(turnA, () -> ran.add("a4 outside a batch"));
        settle(loopA);
        assertThat(ran).hasSize(6).endsWith("a4 outside a batch");
    }

    /** Completions that throw still hand over what they scheduled, and the thread's next batch works as any. */
    @Test
    void aBatchWhoseCompletionsThrowStillHandsOverAndTheNextOneToo() {
        try {
            CompletionBatch.run(() -> {
                CompletionBatch.schedule(turnA, () -> ran.add("a1"));
                throw new IllegalStateException("expected by the test");
            });
            throw new AssertionError("the completions' exception was swallowed");
        } catch (IllegalStateException expected) {
            // the batch ends as its completions did
        }
        CompletionBatch.run(() -> {
            CompletionBatch.schedule(turnA, () -> ran.add("a2"));
            settle(loopA);
            assertThat(ran).as("a batch after a failed one holds its drains until it ends").containsExactly("a1");
        });
        settle(loopA);
        assertThat(ran).containsExactly("a1", "a2");
    }

    @Test
    void aDrainThatThrowsKeepsNoneOfTheOthersOfItsBatchBack() {
        CompletionBatch.run(() -> {
            CompletionBatch.schedule(turnA, () -> ran.add("a1"));
            CompletionBatch.schedule(turnA, () -> {
                throw new IllegalStateException("expected by the test");
            });
            CompletionBatch.schedule(turnA, () -> ran.add("a3"));
        });
        settle(loopA);
        assertThat(ran).containsExactly("a1", "a3");
    }

    @Test
    void schedulesAtOnceOutsideABatch() {
        CompletionBatch.schedule(turnA, () -> ran.add("now"));
        settle(loopA);
        assertThat(ran).containsExactly("now");
    }
}
