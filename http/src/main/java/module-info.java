/**
 * The HTTP/1.1 engine: decoder, router, pipelining, async answers, middleware chains, limits,
 * metrics. Apps see {@code dev.hotpath.http} and the ready-made filters of
 * {@code dev.hotpath.http.filters}; the machinery in {@code dev.hotpath.http.internal} is opened to the JMH
 * benchmarks alone.
 */
module dev.hotpath.http {
    requires transitive io.prometheus.metrics.model;
    requires transitive com.fasterxml.jackson.core;
    requires io.prometheus.writer.text;
    requires io.prometheus.metrics.config;
    requires io.netty.common;
    requires io.netty.buffer;
    requires io.netty.transport;
    requires io.netty.codec;
    requires io.netty.transport.classes.epoll;
    requires io.netty.transport.classes.io_uring;

    exports dev.hotpath.http;
    exports dev.hotpath.http.filters;
    exports dev.hotpath.http.internal to dev.hotpath.bench;
}
