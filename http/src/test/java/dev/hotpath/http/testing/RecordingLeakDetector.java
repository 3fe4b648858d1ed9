package dev.hotpath.http.testing;

import io.netty.util.ResourceLeakDetector;
import java.util.ArrayList;
import java.util.List;

/**
 * Netty's leak detector, made to record what it reports so that {@link LeakCheckExtension} can fail
 * the test class. Installed for every test JVM with
 * {@code -Dio.netty.customResourceLeakDetector=dev.hotpath.http.testing.RecordingLeakDetector}.
 */
public final class RecordingLeakDetector<T> extends ResourceLeakDetector<T> {
    private static final List<String> LEAKS = new ArrayList<>();

    public RecordingLeakDetector(Class<?> resourceType, int samplingInterval) {
        super(resourceType, samplingInterval);
    }

    public RecordingLeakDetector(Class<?> resourceType, int samplingInterval, long maxActive) {
        this(resourceType, samplingInterval);
    }

    @Override
    protected void reportTracedLeak(String resourceType, String records) {
        record("LEAK: " + resourceType + records);
        super.reportTracedLeak(resourceType, records);
    }

    @Override
    protected void reportUntracedLeak(String resourceType) {
        record("LEAK: " + resourceType + " (untraced)");
        super.reportUntracedLeak(resourceType);
    }

    private static synchronized void record(String leak) {
        LEAKS.add(leak);
    }

    /** The leaks reported since the last call. */
    public static synchronized List<String> drain() {
        List<String> leaks = new ArrayList<>(LEAKS);
        LEAKS.clear();
        return leaks;
    }
}
