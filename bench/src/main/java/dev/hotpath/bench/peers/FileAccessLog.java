package dev.hotpath.bench.peers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * An {@link AccessLog} written off the request path, as hotpath's is: a request thread only queues
 * an entry; one background thread takes whatever has queued, up to {@value #MAX_BATCH} entries,
 * formats and writes them, and flushes once per batch. Cost on the request path: one small object and
 * one queue insertion. The queue is unbounded: a disk slower than the request rate shows up as heap,
 * never as a stalled event loop.
 */
final class FileAccessLog implements AccessLog {
    /** Entries written between two flushes at most. */
    static final int MAX_BATCH = 4_096;

    private record Entry(long epochMillis, String requestId, String method, String path, int status, long micros) {
    }

    /** Queued by {@link #close()}: the writer stops when it takes it. */
    private static final Entry END = new Entry(0, "", "", "", 0, 0);

    private final BlockingQueue<Entry> queue = new LinkedBlockingQueue<>();
    private final Writer out;
    private final Thread writer;
    private volatile IOException failure;

    FileAccessLog(Path file) throws IOException {
        out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
            StandardOpenOption.APPEND);
        writer = Thread.ofPlatform().name("access-log").daemon().start(this::drain);
    }

    @Override
    public void record(String requestId, String method, String path, int status, long startNanos) {
        long micros = (System.nanoTime() - startNanos) / 1_000;
        queue.add(new Entry(System.currentTimeMillis(), requestId, method, path, status, micros));
    }

    @Override
    public void close() {
        queue.add(END);
        try {
            writer.join();
            out.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            throw new UncheckedIOException("closing the access log", e);
        }
        if (failure != null) {
            throw new UncheckedIOException("writing the access log", failure);
        }
    }

    private void drain() {
        List<Entry> batch = new ArrayList<>(MAX_BATCH);
        StringBuilder line = new StringBuilder(128);
        try {
            while (true) {
                batch.add(queue.take());
                queue.drainTo(batch, MAX_BATCH - 1);
                for (Entry entry : batch) {
                    if (entry == END) {
                        out.flush();
                        return;
                    }
                    line.setLength(0);
                    line.append(entry.epochMillis()).append(' ').append(entry.requestId()).append(' ')
                        .append(entry.method()).append(' ').append(entry.path()).append(' ')
                        .append(entry.status()).append(' ').append(entry.micros()).append('\n');
                    out.append(line);
                }
                out.flush();
                batch.clear();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            failure = e;
        }
    }
}
