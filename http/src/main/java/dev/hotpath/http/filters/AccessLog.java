package dev.hotpath.http.filters;

import dev.hotpath.http.Exchange;
import dev.hotpath.http.Filter;
import dev.hotpath.http.Method;
import dev.hotpath.http.Response;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * An access log written off the event loops: one line per request,
 * {@code <epoch millis> <request id> <method> <path> <status> <micros>}, the id being the
 * {@code X-Request-Id} answered ({@code -} without {@link RequestIds} before it in the chain) and the
 * micros the time from the chain's start to the answer being written.
 *
 * <p>Each event loop formats its lines into a 64 KiB buffer of its own; a writer thread swaps that
 * buffer for an empty one at least every {@value #FLUSH_MILLIS} ms (sooner once it is half full) and
 * writes it with one system call. The loop's cost per request is the formatting and one uncontended
 * lock; nothing is allocated. When the disk cannot keep up and a loop's buffer fills before the writer
 * gave the other one back, lines are dropped, counted, and the count is written into the log, rather
 * than stalling the loop or queueing without bound. Lines are in the file by {@link #close()} at the
 * latest; a process killed with SIGKILL loses at most the last {@value #FLUSH_MILLIS} ms.
 */
public final class AccessLog implements AutoCloseable {
    static final int BUFFER_BYTES = 64 * 1024;
    static final long FLUSH_MILLIS = 200;
    private static final byte[][] METHODS = new byte[Method.values().length][];

    static {
        for (Method method : Method.values()) {
            METHODS[method.ordinal()] = method.name().getBytes(StandardCharsets.US_ASCII);
        }
    }

    private final WritableByteChannel out;
    private final boolean ownsChannel;
    private final Clock clock;
    private final List<LoopLog> loops = new CopyOnWriteArrayList<>();
    private final AtomicLong dropped = new AtomicLong();
    private final Thread writer;
    private volatile boolean closing;

    private AccessLog(WritableByteChannel out, boolean ownsChannel, Clock clock) {
        this.out = out;
        this.ownsChannel = ownsChannel;
        this.clock = clock;
        this.writer = Thread.ofPlatform().name("access-log").daemon().unstarted(this::writeLoop);
        writer.start();
    }

    /** Appends to {@code file}, creating it when absent. */
    public static AccessLog toFile(Path file, Clock clock) {
        try {
            return new AccessLog(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND), true, clock);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the access log " + file, e);
        }
    }

    /** Writes to {@code channel}, which the log closes when it closes: for tests that steer the writer. */
    static AccessLog toChannel(WritableByteChannel channel, Clock clock) {
        return new AccessLog(channel, true, clock);
    }

    /** Writes to the process's standard output. */
    public static AccessLog toStdout(Clock clock) {
        return new AccessLog(new FileOutputStream(FileDescriptor.out).getChannel(), false, clock);
    }

    /** The filter to put in a chain: one per event loop, each with its own buffers. */
    public Supplier<Filter> filter() {
        return () -> {
            LoopLog log = new LoopLog();
            loops.add(log);
            return log;
        };
    }

    /** Lines dropped so far because the writer fell behind. */
    public long dropped() {
        return dropped.get();
    }

    /** Writes every line logged so far and stops the writer; call once the server has stopped. */
    @Override
    public void close() {
        closing = true;
        LockSupport.unpark(writer);
        try {
            writer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            if (ownsChannel) {
                out.close();
            }
        } catch (IOException e) {
            System.getLogger(AccessLog.class.getName()).log(System.Logger.Level.WARNING, "closing the access log failed", e);
        }
    }

    private void writeLoop() {
        long reported = 0;
        while (true) {
            boolean last = closing;
            for (LoopLog log : loops) {
                log.drainTo(out);
            }
            long lost = dropped.get();
            if (lost > reported) {
                write(out, ByteBuffer.wrap(("# access log: " + (lost - reported) + " lines dropped, the writer fell behind\n")
                    .getBytes(StandardCharsets.US_ASCII)));
                reported = lost;
            }
            if (last) {
                return;
            }
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(FLUSH_MILLIS));
        }
    }

    private static void write(WritableByteChannel out, ByteBuffer bytes) {
        try {
            while (bytes.hasRemaining()) {
                out.write(bytes);
            }
        } catch (IOException e) {
            System.getLogger(AccessLog.class.getName()).log(System.Logger.Level.WARNING, "writing the access log failed", e);
        }
    }

    /**
     * One event loop's filter and buffers. The loop appends to {@code active}; the writer swaps it for
     * {@code spare} under the lock and writes the full one outside it, then hands it back as the spare.
     */
    private final class LoopLog implements Filter {
        /** The longest line: the longest path a request line can carry, plus the fixed fields. */
        private final byte[] line = new byte[BUFFER_BYTES / 2];
        private final byte[] id = new byte[RequestIds.MAX_LENGTH];
        private ByteBuffer active = ByteBuffer.allocate(BUFFER_BYTES);
        private ByteBuffer spare = ByteBuffer.allocate(BUFFER_BYTES);
        /** Whether the writer was woken for {@code active} being half full; guarded by this. */
        private boolean wakeSent;

        @Override
        public Response before(Exchange exchange) {
            return null;
        }

        @Override
        public void after(Exchange exchange) {
            int length = format(exchange);
            synchronized (this) {
                if (active.remaining() < length) {
                    dropped.incrementAndGet();
                    return;
                }
                active.put(line, 0, length);
                if (!wakeSent && active.position() > BUFFER_BYTES / 2) {
                    wakeSent = true; // once per buffer: each unpark takes the writer's lock and signals it
                    LockSupport.unpark(writer);
                }
            }
        }

        private int format(Exchange exchange) {
            int at = Decimal.write(clock.millis(), line, 0);
            line[at++] = ' ';
            int idLength = exchange.responseHeader(RequestIds.X_REQUEST_ID, id);
            if (idLength < 0) {
                line[at++] = '-';
            } else {
                System.arraycopy(id, 0, line, at, Math.min(idLength, id.length));
                at += Math.min(idLength, id.length);
            }
            line[at++] = ' ';
            byte[] method = METHODS[exchange.method().ordinal()];
            System.arraycopy(method, 0, line, at, method.length);
            at += method.length;
            line[at++] = ' ';
            int room = line.length - at - 48;
            if (exchange.pathLength() <= room) {
                at = exchange.copyPath(line, at);
            } else {
                line[at++] = '-';
            }
            line[at++] = ' ';
            at = Decimal.write(exchange.status(), line, at);
            line[at++] = ' ';
            at = Decimal.write(Math.max(0, System.nanoTime() - exchange.startedNanos()) / 1000, line, at);
            line[at++] = '\n';
            return at;
        }

        /** Swaps out what was logged, writes it, and takes the buffer back as the spare. */
        void drainTo(WritableByteChannel channel) {
            ByteBuffer full;
            synchronized (this) {
                if (active.position() == 0 || spare == null) {
                    return;
                }
                full = active;
                active = spare;
                spare = null;
                wakeSent = false;
            }
            full.flip();
            write(channel, full);
            full.clear();
            synchronized (this) {
                spare = full;
            }
        }
    }
}
