package dev.hotpath.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** An interrupt never cuts the wait for an owned thread short; it is reported, not lost. */
class OwnedThreadsTest {

    @Test
    void waitsThroughAnInterruptAndReportsIt() {
        Thread caller = Thread.currentThread();
        caller.interrupt();
        // Ends only once the caller's first join has thrown (which clears its flag), so the wait
        // is certainly interrupted while this thread is alive.
        Thread owned = Thread.ofPlatform().start(() -> {
            while (caller.isInterrupted()) {
                Thread.onSpinWait();
            }
        });

        boolean interrupted = OwnedThreads.awaitEnd(owned);

        assertThat(interrupted).isTrue();
        assertThat(owned.isAlive()).isFalse();
        assertThat(Thread.interrupted()).as("the flag is the caller's to restore").isFalse();
    }

    @Test
    void anUninterruptedWaitSaysSo() {
        Thread owned = Thread.ofPlatform().start(() -> { });

        assertThat(OwnedThreads.awaitEnd(owned)).isFalse();
        assertThat(owned.isAlive()).isFalse();
    }

    @Test
    void aThreadWaitingForItsOwnEndIsRefusedNotHung() {
        assertThatThrownBy(() -> OwnedThreads.awaitEnd(Thread.currentThread()))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("its own end");
    }
}
