package dev.hotpath.loadgen.internal;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringIoHandlerConfig;
import io.netty.channel.uring.IoUringSocketChannel;

/** The generator's socket transport: io_uring, then epoll, then NIO, whichever loads here first. */
public record ClientTransport(String name, IoHandlerFactory ioHandlerFactory, Class<? extends SocketChannel> channel) {
    /**
     * Completion-queue entries per io_uring loop (16 bytes each): closing 19,000 users' connections at
     * the end of a run overflowed Netty's default of 4,096 (handled, but warned about 24 times).
     */
    private static final int COMPLETION_QUEUE = 1 << 16;

    public static ClientTransport best() {
        if (IoUring.isAvailable()) {
            return new ClientTransport("io_uring",
                IoUringIoHandler.newFactory(new IoUringIoHandlerConfig().setCqSize(COMPLETION_QUEUE)), IoUringSocketChannel.class);
        }
        if (Epoll.isAvailable()) {
            return new ClientTransport("epoll", EpollIoHandler.newFactory(), EpollSocketChannel.class);
        }
        return new ClientTransport("nio", NioIoHandler.newFactory(), NioSocketChannel.class);
    }
}
