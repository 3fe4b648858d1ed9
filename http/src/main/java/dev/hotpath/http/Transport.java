package dev.hotpath.http;

/** The socket transport. {@link #AUTO} picks io_uring, then epoll, then NIO, whichever works first here. */
public enum Transport {
    AUTO, IO_URING, EPOLL, NIO
}
