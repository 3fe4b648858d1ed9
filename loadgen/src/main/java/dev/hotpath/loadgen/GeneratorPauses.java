package dev.hotpath.loadgen;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The generator's own stop-the-world collection pauses over a run's measured period. A pause stops the
 * generator's clocks and sockets alike, so every request in flight during it is measured that much
 * slower: a run reports how many there were and how long the longest was, so that a tail latency of
 * the same size is read as the generator's and not the server's (a create run's p99.9 of 60 ms was
 * once the generator's own 90 ms pauses).
 *
 * <p>The JVM announces each collection on one of its own threads shortly after it ends; a pause
 * counts when it began inside the period (JVM uptime, millisecond resolution). Concurrent cycles are
 * not pauses and are left out. Read {@link #summary()} well after the period (the run reads it after
 * the verification phase), so that the last announcements have arrived.
 */
public final class GeneratorPauses implements MeasuredPeriod, AutoCloseable {
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final NotificationListener listener = this::collected;
    private long periodStart = -1;
    private long periodEnd = Long.MAX_VALUE;
    private int count;
    private long totalMillis;
    private long longestMillis;

    /** Listens to every collector of this JVM until {@link #close()}. */
    public static GeneratorPauses listen() {
        GeneratorPauses pauses = new GeneratorPauses();
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (collector instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(pauses.listener, null, null);
                pauses.emitters.add(emitter);
            }
        }
        return pauses;
    }

    /** How many pauses began in the period, their total and the longest, in milliseconds. */
    public record Summary(int count, long totalMillis, long longestMillis) {
    }

    public synchronized Summary summary() {
        return new Summary(count, totalMillis, longestMillis);
    }

    @Override
    public synchronized void started() {
        periodStart = ManagementFactory.getRuntimeMXBean().getUptime();
    }

    @Override
    public synchronized void ended() {
        periodEnd = ManagementFactory.getRuntimeMXBean().getUptime();
    }

    /** Counts a pause that began at {@code startUptimeMillis} and lasted {@code durationMillis}, if inside the period. */
    synchronized void pause(long startUptimeMillis, long durationMillis) {
        if (periodStart < 0 || startUptimeMillis < periodStart || startUptimeMillis > periodEnd) {
            return;
        }
        count++;
        totalMillis += durationMillis;
        longestMillis = Math.max(longestMillis, durationMillis);
    }

    private void collected(Notification notification, Object handback) {
        if (!notification.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
            return;
        }
        GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
        if (info.getGcAction().contains("concurrent") || info.getGcName().contains("Cycles")) {
            return;
        }
        pause(info.getGcInfo().getStartTime(), info.getGcInfo().getDuration());
    }

    @Override
    public void close() {
        for (NotificationEmitter emitter : emitters) {
            try {
                emitter.removeNotificationListener(listener);
            } catch (ListenerNotFoundException e) {
                // Already gone: nothing to undo.
            }
        }
    }
}
