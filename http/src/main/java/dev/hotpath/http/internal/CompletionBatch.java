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
    /**
     * Each thread's one batch, reused: a batch and its lists made per writer commit, and the thread
     * local set and removed each time, were about a third of what S4's writer thread allocated at a
     * common rate (async-profiler), where a commit holds one or two creates.
     */
    private static final ThreadLocal<CompletionBatch> BATCHES = ThreadLocal.withInitial(CompletionBatch::new);

    private final List<TurnTasks> loops = new ArrayList<>(4);
    /** The drains for {@code loops.get(i)} at {@code i}; kept emptied past {@code loops.size()} for the next batch. */
    private final List<List<Runnable>> drains = new ArrayList<>(4);
    private boolean running;

    private CompletionBatch() {
    }

    /** Runs {@code completions}; the drains they schedule reach each loop in one task, after it returns. */
    public static void run(Runnable completions) {
        CompletionBatch batch = BATCHES.get();
        if (batch.running) {
            completions.run();
            return;
        }
        batch.running = true;
        try {
            completions.run();
        } finally {
            batch.running = false;
            batch.handOff();
        }
    }

    /** Hands {@code drain} to {@code loop}: now, or at the end of the current thread's batch. */
    static void schedule(TurnTasks loop, Runnable drain) {
        CompletionBatch batch = BATCHES.get();
        if (!batch.running) {
            loop.handOver(drain);
            return;
        }
        int index = batch.loops.indexOf(loop);
        if (index < 0) {
            index = batch.loops.size();
            batch.loops.add(loop);
            if (batch.drains.size() == index) {
                batch.drains.add(new ArrayList<>());
            }
        }
        batch.drains.get(index).add(drain);
    }

    /** Hands each loop its drains (copied into its queue), then empties the lists for the next batch. */
    private void handOff() {
        try {
            for (int i = 0; i < loops.size(); i++) {
                loops.get(i).handOver(drains.get(i)); // each drain a task: one that throws keeps none of the others back
            }
        } finally {
            for (int i = 0; i < loops.size(); i++) {
                drains.get(i).clear();
            }
            loops.clear();
        }
    }
}
