/**
 * The fail-closed load harness behind {@code hotpath bench}: runs, scenarios, verdicts and reports.
 * It speaks HTTP over its own Netty client and knows nothing of the apps; its connection machinery in
 * {@code dev.hotpath.loadgen.internal} is exported to nobody.
 */
module dev.hotpath.loadgen {
    requires com.fasterxml.jackson.core;
    requires io.netty.common;
    requires io.netty.buffer;
    requires io.netty.transport;
    requires io.netty.codec;
    requires io.netty.transport.classes.epoll;
    requires io.netty.transport.classes.io_uring;
    requires HdrHistogram;
    requires java.management;
    requires jdk.management;
    requires java.net.http;

    exports dev.hotpath.loadgen;
    exports dev.hotpath.loadgen.scenario;
}
