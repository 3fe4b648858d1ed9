package dev.hotpath.bench.peers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * The access-log middleware's sink: one line per request through the middleware,
 * {@code <epoch millis> <request id> <method> <path> <status> <micros>}, where micros run from the
 * moment the middleware saw the request to the moment the answer was handed to the framework.
 * Without {@code --access-log} the log is {@link #OFF}: nothing is formatted or written.
 */
interface AccessLog extends AutoCloseable {
    /** Drops every entry. */
    AccessLog OFF = new AccessLog() {
        @Override
        public void record(String requestId, String method, String path, int status, long startNanos) {
        }

        @Override
        public void close() {
        }
    };

    /** {@link #OFF} when {@code file} is {@code null}, else a log appending to it. */
    static AccessLog open(Path file) {
        if (file == null) {
            return OFF;
        }
        try {
            return new FileAccessLog(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the access log " + file, e);
        }
    }

    /**
     * Records one answered request; {@code startNanos} is {@link System#nanoTime()} when the middleware
     * began. Never blocks on I/O.
     */
    void record(String requestId, String method, String path, int status, long startNanos);

    /** Writes every entry recorded so far, then closes. */
    @Override
    void close();
}
