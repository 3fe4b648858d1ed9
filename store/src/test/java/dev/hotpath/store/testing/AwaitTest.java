package dev.hotpath.store.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AwaitTest {
    @Test
    void untilReturnsOnceTheConditionHolds() {
        AtomicInteger checks = new AtomicInteger();
        Await.until("the third check", () -> checks.incrementAndGet() == 3);
        assertThat(checks).hasValue(3);
    }

    @Test
    void aConditionThatThrowsFailsAPlainWait() {
        assertThatThrownBy(() -> Await.until("a broken check", () -> {
            throw new IllegalStateException("boom");
        })).isInstanceOf(AssertionError.class).hasMessageContaining("checking a broken check failed");
    }

    @Test
    void aServerStartCountsAThrowAsNotYet() throws Exception {
        Process sleeper = new ProcessBuilder("sleep", "60").start();
        try {
            AtomicInteger checks = new AtomicInteger();
            boolean started = Await.untilOrExit("the second check", sleeper, () -> {
                if (checks.incrementAndGet() < 2) {
                    throw new IOException("connection refused");
                }
                return true;
            }, () -> "");
            assertThat(started).isTrue();
            assertThat(checks).hasValue(2);
        } finally {
            sleeper.destroyForcibly().waitFor();
        }
    }

    @Test
    void aServerThatExitsEndsTheWaitWithFalse() throws Exception {
        Process exited = new ProcessBuilder("true").start();
        exited.waitFor();
        assertThat(Await.untilOrExit("a server that exited", exited, () -> false, () -> "")).isFalse();
    }
}
