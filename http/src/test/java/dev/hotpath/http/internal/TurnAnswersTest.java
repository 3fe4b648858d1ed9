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
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import io.netty.util.concurrent.AbstractEventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ImmediateEventExecutor;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An answer that a task left for the end of the turn completes (a group commit on the loop) goes out
 * at the loop's next read once the task has waited into another millisecond, without waiting for the
 * turn to end; within the same millisecond it waits for the turn's end. The reads are fired by hand
 * and the loop's own tasks (the end of the turn) are held in a list the test runs when it chooses
 * (the embedded channel's loop would run them after every write), so which of the two sent the answer
 * is certain.
 */
class TurnAnswersTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-02T17:00:00Z"));
    private final AtomicReference<ServerContext> server = new AtomicReference<>();
    private final HeldTasks loop = new HeldTasks();
    private EmbeddedChannel channel;

    @BeforeEach
    void connect() {
        Routes routes = Routes.builder()
            .get("/later", (Request request, Deferred answer) -> server.get().turnTasks(loop)
                .execute(() -> answer.complete(Response.text(200, "later"))))
            .get("/now", request -> Response.text(200, "now"))
            .build();
        channel = new EmbeddedChannel();
        server.set(new ServerContext(ServerLimits.DEFAULTS, new Router(routes, ServerLimits.MAX_BODY_BYTES), clock,
            List.of(loop)));
        channel.pipeline().addLast(new Connection(server.get(), server.get().loops().iterator().next()));
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

    /** A loop whose tasks wait until {@link #runHeld()}; the test's thread is its thread. */
    private static final class HeldTasks extends AbstractEventExecutor {
        private final Queue<Runnable> held = new ArrayDeque<>();

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
            return true;
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
