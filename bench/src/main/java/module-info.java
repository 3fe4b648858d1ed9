/** JMH microbenchmarks and the peer servers hotpath is measured against; the one reader of internals. */
module dev.hotpath.bench {
    requires dev.hotpath.apps;
    requires jmh.core;
    requires io.netty.common;
    requires io.netty.buffer;
    requires io.netty.transport;
    requires io.netty.codec;
    requires io.netty.codec.http;
    requires com.fasterxml.jackson.core;
    requires com.zaxxer.hikari;
    requires org.xerial.sqlitejdbc;
    requires io.vertx.core;
    requires io.vertx.web;
    requires io.helidon.webserver;
    requires jdk.unsupported;

    opens dev.hotpath.bench to jmh.core;
}
