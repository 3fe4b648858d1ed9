package dev.hotpath.http.testing;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test class when Netty reported a leaked buffer during it. Registered for every test class
 * through the JUnit extension service file; leak detection runs at {@code paranoid} in tests, so every
 * buffer is tracked. Leaks surface when the garbage collector has cleared a buffer that was never
 * released and the next tracked allocation polls for them: this collects, then allocates, a few times.
 */
public final class LeakCheckExtension implements AfterAllCallback {
    private static final int ROUNDS = 3;

    @Override
    public void afterAll(ExtensionContext context) {
        if (ResourceLeakDetector.getLevel() != ResourceLeakDetector.Level.PARANOID) {
            throw new AssertionError("tests must run with -Dio.netty.leakDetection.level=paranoid");
        }
        for (int i = 0; i < ROUNDS; i++) {
            System.gc();
            ByteBuf probe = ByteBufAllocator.DEFAULT.buffer(1);
            probe.release();
        }
        List<String> leaks = RecordingLeakDetector.drain();
        if (!leaks.isEmpty()) {
            throw new AssertionError(leaks.size() + " Netty buffer leak(s) in "
                + context.getDisplayName() + ":\n" + String.join("\n", leaks));
        }
    }
}
