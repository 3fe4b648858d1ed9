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

/** Resolves a {@link Transport} to Netty's I/O handler and server channel, checking the native one loads. */
public final class Transports {
    /**
     * Completion-queue entries of each io_uring event loop's ring (Netty's default is 4,096). Every
     * operation the kernel completes while the loop is busy elsewhere (running handlers, draining a
     * pipelined batch, a GC pause) waits in this queue; past its size the kernel parks completions on
     * an overflow list that the loop must flush with an extra system call, and Netty warns each time.
     * Connection churn fills it: each short-lived connection costs its loop about four completions
     * (read, write, close, the peer-hangup poll) besides the listener's accept, and about 7,000 new
     * connections a second, most sending garbage that is answered 400 and closed, overflowed 4,096
     * repeatedly. 65,536 is the largest ring the kernel makes (IORING_MAX_CQ_ENTRIES), holds one
     * completion for each connection the default
     * {@link dev.hotpath.http.ServerLimits#MAX_CONNECTIONS} admits even if all of them
     * land on one loop at once (a close storm), and matches the load generator's rings. Cost: 16 bytes
     * an entry, 1 MiB of kernel memory per event loop, mapped into the process; and on the heap, for
     * as long as the loop runs, Netty's {@code CompletionQueue} keeps one {@code ByteBuffer} view per
     * entry, about 4.5 MB a loop (69,658 {@code DirectByteBuffer}s in the heap of a one-loop server).
     */
    public static final int IO_URING_COMPLETION_QUEUE = 1 << 16;

    private Transports() {
    }

    /** A transport that works here, with what Netty needs to run it. */
    public record Resolved(Transport transport, IoHandlerFactory ioHandlerFactory,
                           Class<? extends ServerChannel> serverChannel) {
    }

    /**
     * {@link Transport#AUTO} picks io_uring, then epoll, then NIO.
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
        return new Resolved(Transport.IO_URING,
            IoUringIoHandler.newFactory(new IoUringIoHandlerConfig().setCqSize(IO_URING_COMPLETION_QUEUE)),
            IoUringServerSocketChannel.class);
    }

    private static Resolved epoll() {
        return new Resolved(Transport.EPOLL, EpollIoHandler.newFactory(), EpollServerSocketChannel.class);
    }

    private static Resolved nio() {
        return new Resolved(Transport.NIO, NioIoHandler.newFactory(), NioServerSocketChannel.class);
    }
}
