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
import io.netty.channel.uring.IoUringServerSocketChannel;

/** Resolves a {@link Transport} to Netty's I/O handler and server channel, checking the native one loads. */
public final class Transports {
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
        return new Resolved(Transport.IO_URING, IoUringIoHandler.newFactory(), IoUringServerSocketChannel.class);
    }

    private static Resolved epoll() {
        return new Resolved(Transport.EPOLL, EpollIoHandler.newFactory(), EpollServerSocketChannel.class);
    }

    private static Resolved nio() {
        return new Resolved(Transport.NIO, NioIoHandler.newFactory(), NioServerSocketChannel.class);
    }
}
