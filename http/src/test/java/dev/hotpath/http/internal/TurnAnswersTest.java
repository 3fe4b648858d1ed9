package dev.hotpath.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hotpath.http.Deferred;
import dev.hotpath.http.Request;
import dev.hotpath.http.Response;
import dev.hotpath.http.Routes;
import dev.hotpath.http.ServerLimits;
import dev.hotpath.http.testing.MutableClock;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.AbstractEventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ImmediateEventExecutor;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An answer that a task left for the end of the turn completes (a group commit on the loop) goes out
 * at the loop's next read once the task has waited into another millisecond, without waiting for the
 * turn to end; within the same millisecond it waits for the turn's end. An answer completed on another
 * thread (a writer's commit) is never written there: it goes out at the loop's next read, or when the
 * loop runs the task it was handed. The reads are fired by hand and the loop's own tasks (the end of
 * the turn, a hand-over) are held in a queue the test runs when it chooses (the embedded channel's loop
 * would run them after every write), so which of them sent the answer is certain. The connection runs
 * on that loop, whose thread is the test's.
 */
class TurnAnswersTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-02T17:00:00Z"));
    private final AtomicReference<ServerContext> server = new AtomicReference<>();
    private final HeldTasks loop = new HeldTasks(Thread.currentThread());
    private final AtomicReference<Deferred> elsewhere = new AtomicReference<>();
    private EmbeddedChannel channel;

    @BeforeEach
    void connect() {
        Routes routes = Routes.builder()
            .get("/later", (Request request, Deferred answer) -> server.get().turnTasks(loop)
                .execute(() -> answer.complete(Response.text(200, "later"))))
            .get("/now", request -> Response.text(200, "now"))
            .get("/elsewhere", (Request request, Deferred answer) -> elsewhere.set(answer))
            .build();
        channel = new EmbeddedChannel();
        server.set(new ServerContext(ServerLimits.DEFAULTS, new Router(routes, ServerLimits.MAX_BODY_BYTES), clock,
            List.of(loop)));
        channel.pipeline().addLast(loop, "connection", new Connection(server.get(), server.get().loops().iterator().next()));
    }

    @AfterEach
    void close() {
        channel.finishAndReleaseAll();
    }

    /** One read of {@code request}, as the transport delivers it: without running the loop's tasks. */
    private void read(String request) {
        channel.pipeline().fireChannelRead(Unpooled.copiedBuffer(request, StandardCharsets.US_ASCII));
        channel.pipeline().fireChannelReadComplete();
    }

    private String sent() {
        StringBuilder out = new StringBuilder();
        ByteBuf bytes;
        while ((bytes = channel.readOutbound()) != null) {
            out.append(bytes.toString(StandardCharsets.US_ASCII));
            bytes.release();
        }
        return out.toString();
    }

    @Test
    void goesOutAtTheNextReadOnceItsTaskWaitedIntoAnotherMillisecond() {
        read("GET /later HTTP/1.1\r\nHost: t\r\n\r\n");
        assertThat(sent()).isEmpty();
        clock.advance(Duration.ofMillis(1));
        read("GET /now HTTP/1.1\r\nHost: t\r\n\r\n");
        assertThat(sent()).as("both answers, in request order, before the turn ended")
            .containsSubsequence("200 OK", "later", "200 OK", "now");
    }

    @Test
    void waitsForTheEndOfTheTurnWithinTheSameMillisecond() {
        read("GET /later HTTP/1.1\r\nHost: t\r\n\r\n");
        read("GET /now HTTP/1.1\r\nHost: t\r\n\r\n");
        assertThat(sent()).as("the answer to /now queues behind the open one").isEmpty();
        loop.runHeld(); // the end of the turn
        assertThat(sent()).containsSubsequence("200 OK", "later", "200 OK", "now");
    }

    /** Completes the open {@code /elsewhere} answer on a thread of its own, and waits for that thread. */
    private void completeElsewhere() {
        Thread writer = Thread.ofPlatform().start(() -> elsewhere.get().complete(Response.text(200, "elsewhere")));
        try {
            writer.join();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void anAnswerCompletedOnAnotherThreadGoesOutAtTheNextRead() {
        read("GET /elsewhere HTTP/1.1\r\nHost: t\r\n\r\n");
        completeElsewhere();
        assertThat(sent()).as("nothing is written on the completing thread").isEmpty();
        read("GET /now HTTP/1.1\r\nHost: t\r\n\r\n");
        assertThat(sent()).as("both answers, in request order, before the loop ran its tasks")
            .containsSubsequence("200 OK", "elsewhere", "200 OK", "now");
        loop.runHeld(); // the hand-over's own task
        assertThat(sent()).as("sent once").isEmpty();
    }

    @Test
    void anAnswerCompletedOnAnotherThreadGoesOutWithTheLoopsTaskWhenNoReadComes() {
        read("GET /elsewhere HTTP/1.1\r\nHost: t\r\n\r\n");
        completeElsewhere();
        assertThat(sent()).isEmpty();
        loop.runHeld();
        assertThat(sent()).contains("200 OK", "elsewhere");
    }

    /** A loop whose tasks wait until {@link #runHeld()}; its thread is the one given. */
    private static final class HeldTasks extends AbstractEventExecutor {
        private final Queue<Runnable> held = new ConcurrentLinkedQueue<>();
        private final Thread owner;

        HeldTasks(Thread owner) {
            this.owner = owner;
        }

        void runHeld() {
            Runnable task;
            while ((task = held.poll()) != null) {
                task.run();
            }
        }

        @Override
        public void execute(Runnable task) {
            held.add(task);
        }

        @Override
        public boolean inEventLoop(Thread thread) {
            return thread == owner;
        }

        @Override
        public boolean isShuttingDown() {
            return false;
        }

        @Override
        public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
            return terminationFuture();
        }

        @Override
        public Future<?> terminationFuture() {
            return ImmediateEventExecutor.INSTANCE.newSucceededFuture(null);
        }

        @Override
        @Deprecated
        public void shutdown() {
        }

        @Override
        public boolean isShutdown() {
            return false;
        }

        @Override
        public boolean isTerminated() {
            return false;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return false;
        }
    }
}
