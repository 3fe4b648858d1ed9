package dev.hotpath.loadgen;

import java.io.PrintStream;
import java.util.Locale;

/** Where a run reports how it goes, about once a second. */
@FunctionalInterface
public interface Progress {
    Progress NONE = (elapsedSeconds, answered, errors, p99Millis) -> { };

    void update(double elapsedSeconds, long answered, long errors, double p99Millis);

    /** One line rewritten in place: for a terminal. */
    static Progress line(PrintStream out) {
        return line(out, "");
    }

    /** As {@link #line(PrintStream)}, each line starting with {@code prefix} (which run of several this is). */
    static Progress line(PrintStream out, String prefix) {
        return new Progress() {
            private long lastAnswered;
            private double lastElapsed;

            @Override
            public void update(double elapsedSeconds, long answered, long errors, double p99Millis) {
                double rate = elapsedSeconds > lastElapsed ? (answered - lastAnswered) / (elapsedSeconds - lastElapsed) : 0;
                lastAnswered = answered;
                lastElapsed = elapsedSeconds;
                out.printf(Locale.ROOT, "\r%s%6.1f s  %,12.0f req/s  p99 %8.2f ms  errors %d   ", prefix, elapsedSeconds, rate, p99Millis, errors);
                out.flush();
            }
        };
    }
}
