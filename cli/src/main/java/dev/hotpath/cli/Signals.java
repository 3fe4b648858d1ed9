package dev.hotpath.cli;

import sun.misc.Signal;

/**
 * SIGTERM and SIGINT handling. A shutdown hook cannot choose the exit status (the JVM exits 143 on
 * SIGTERM), so the signals are caught and the serving thread shuts down and exits 0 itself.
 */
final class Signals {
    private Signals() {
    }

    static void onTermination(Runnable action) {
        Signal.handle(new Signal("TERM"), signal -> action.run());
        Signal.handle(new Signal("INT"), signal -> action.run());
    }
}
