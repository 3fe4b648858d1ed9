package dev.hotpath.http.internal;

import dev.hotpath.http.Transport;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringIoHandlerConfig;
import io.netty.channel.uring.IoUringServerSocketChannel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Resolves a {@link Transport} to Netty's I/O handler and server channel, checking the native one loads. */
public final class Transports {
    /**
     * The most completion-queue entries an io_uring event loop's ring gets: the largest ring the kernel
     * makes (IORING_MAX_CQ_ENTRIES).
     */
    private static final int MAX_COMPLETION_QUEUE = 1 << 16;
    /** The fewest: Netty's own default, which connection churn overflowed (see {@link #completionQueueEntries}). */
    private static final int MIN_COMPLETION_QUEUE = 1 << 12;

    private static final String OPEN_FILES = "Max open files";

    private Transports() {
    }

    /**
     * Completion-queue entries of each io_uring event loop's ring in a process allowed
     * {@code openFileLimit} descriptors. Every operation the kernel completes while the loop is busy
     * elsewhere (running handlers, draining a pipelined batch, a GC pause) waits in this queue; past its
     * size the kernel parks completions on an overflow list that the loop must flush with an extra
     * system call, and Netty warns each time. Connection churn fills it: each short-lived connection
     * costs its loop about four completions (read, write, close, the peer-hangup poll) besides the
     * listener's accept, and about 7,000 new connections a second, most sending garbage that is answered
     * 400 and closed, overflowed Netty's default of 4,096 repeatedly.
     *
     * <p>So the ring holds one completion for each descriptor the process may have open, even if all of
     * them land on one loop at once (a close storm): every pending completion belongs to an open
     * descriptor, including connections over the server's {@code maxConnections}, which are accepted
     * and closed. That is the smallest power of two (the kernel's and Netty's rule) at or above the
     * limit, between {@value #MIN_COMPLETION_QUEUE} and {@value #MAX_COMPLETION_QUEUE}. Why not always
     * the largest: each entry costs 16 bytes of kernel memory mapped into the process, and on kernels
     * with {@code IORING_SETUP_CQE_MIXED} (which Netty then always uses, with no switch to turn it off)
     * a heap {@code ByteBuffer} view Netty keeps for as long as the loop runs: 65,536 entries are 1 MiB
     * mapped and about 4.5 MB of heap a loop, which a server that allocates nothing per request keeps
     * resident for its whole life. Under the 20,000-descriptor limit of the machines this is measured
     * on, 32,768 entries halve both.
     */
    public static int completionQueueEntries(long openFileLimit) {
        if (openFileLimit >= MAX_COMPLETION_QUEUE) {
            return MAX_COMPLETION_QUEUE;
        }
        return Math.max(MIN_COMPLETION_QUEUE, Integer.highestOneBit((int) Math.max(1, openFileLimit) - 1) << 1);
    }

    /**
     * This process's soft limit on open files, read from {@code /proc/self/limits} (the JVM has already
     * raised it to the hard limit where it could); {@link Long#MAX_VALUE} when unlimited or unknown.
     */
    public static long openFileLimit() {
        try {
            return openFileLimit(Files.readAllLines(Path.of("/proc/self/limits")));
        } catch (IOException e) {
            return Long.MAX_VALUE;
        }
    }

    /** The soft open-file limit in {@code /proc/<pid>/limits}' lines; {@link Long#MAX_VALUE} when unlimited or absent. */
    static long openFileLimit(List<String> limits) {
        for (String line : limits) {
            if (line.startsWith(OPEN_FILES)) {
                String soft = line.substring(OPEN_FILES.length()).strip().split("\\s+", 2)[0];
                try {
                    return Long.parseLong(soft);
                } catch (NumberFormatException unlimited) {
                    return Long.MAX_VALUE;
                }
            }
        }
        return Long.MAX_VALUE;
    }

    /** A transport that works here, with what Netty needs to run it. */
    public record Resolved(Transport transport, IoHandlerFactory ioHandlerFactory,
                           Class<? extends ServerChannel> serverChannel) {
    }

    /**
     * {@link Transport#AUTO} picks io_uring, then epoll, then NIO; io_uring's completion queues are sized
     * by {@link #completionQueueEntries}.
     *
     * @throws IllegalStateException when an explicitly requested native transport cannot load here
     */
    public static Resolved resolve(Transport requested) {
        return switch (requested) {
            case AUTO -> IoUring.isAvailable() ? ioUring() : Epoll.isAvailable() ? epoll() : nio();
            case IO_URING -> {
                if (!IoUring.isAvailable()) {
                    throw new IllegalStateException("io_uring is not available here: " + IoUring.unavailabilityCause());
                }
                yield ioUring();
            }
            case EPOLL -> {
                if (!Epoll.isAvailable()) {
                    throw new IllegalStateException("epoll is not available here: " + Epoll.unavailabilityCause());
                }
                yield epoll();
            }
            case NIO -> nio();
        };
    }

    private static Resolved ioUring() {
        IoUringIoHandlerConfig config = new IoUringIoHandlerConfig();
        // Netty wants at least as many completion entries as submission entries (io.netty.iouring.ringSize)
        config.setCqSize(Math.max(completionQueueEntries(openFileLimit()), config.getRingSize()));
        return new Resolved(Transport.IO_URING, IoUringIoHandler.newFactory(config),
            IoUringServerSocketChannel.class);
    }

    private static Resolved epoll() {
        return new Resolved(Transport.EPOLL, EpollIoHandler.newFactory(), EpollServerSocketChannel.class);
    }

    private static Resolved nio() {
        return new Resolved(Transport.NIO, NioIoHandler.newFactory(), NioServerSocketChannel.class);
    }
}
