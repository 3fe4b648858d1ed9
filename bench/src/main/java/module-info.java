/** JMH microbenchmarks and the peer servers hotpath is measured against; the one reader of internals. */
module dev.hotpath.bench {
    requires dev.hotpath.apps;
    requires jmh.core;
    requires io.netty.common;
    requires io.netty.buffer;
    requires io.netty.transport;
    requires io.netty.codec;
    requires io.netty.codec.http;

    opens dev.hotpath.bench to jmh.core;
}
