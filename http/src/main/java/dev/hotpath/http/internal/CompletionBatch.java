package dev.hotpath.http.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * Responses completed together on one foreign thread (a writer's committed batch), handed to their
 * event loops once per loop instead of once per response. Each hand-off may wake a sleeping loop
 * through its eventfd; where the loop and the completing thread share a core, each wake-up can also
 * switch threads before the next response is completed. Batching makes that one wake-up per loop.
 * Each hand-off goes through the loop's {@link TurnTasks#handOver}, which also runs it at the loop's
 * next read rather than only at the end of a turn that may be long.
 */
public final class CompletionBatch {
    private static final ThreadLocal<CompletionBatch> CURRENT = new ThreadLocal<>();

    private final List<TurnTasks> loops = new ArrayList<>(4);
    private final List<List<Runnable>> drains = new ArrayList<>(4);

    private CompletionBatch() {
    }

    /** Runs {@code completions}; the drains they schedule reach each loop in one task, after it returns. */
    public static void run(Runnable completions) {
        if (CURRENT.get() != null) {
            completions.run();
            return;
        }
        CompletionBatch batch = new CompletionBatch();
        CURRENT.set(batch);
        try {
            completions.run();
        } finally {
            CURRENT.remove();
            batch.handOff();
        }
    }

    /** Hands {@code drain} to {@code loop}: now, or at the end of the current thread's batch. */
    static void schedule(TurnTasks loop, Runnable drain) {
        CompletionBatch batch = CURRENT.get();
        if (batch == null) {
            loop.handOver(drain);
            return;
        }
        int index = batch.loops.indexOf(loop);
        if (index < 0) {
            batch.loops.add(loop);
            batch.drains.add(new ArrayList<>());
            index = batch.loops.size() - 1;
        }
        batch.drains.get(index).add(drain);
    }

    private void handOff() {
        for (int i = 0; i < loops.size(); i++) {
            loops.get(i).handOver(drains.get(i)); // each drain a task: one that throws keeps none of the others back
        }
    }
}
