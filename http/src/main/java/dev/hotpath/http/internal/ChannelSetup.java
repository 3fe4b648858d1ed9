package dev.hotpath.http.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;

/**
 * Admits a new connection: within {@code maxConnections} it gets a {@link Connection}; beyond it, it is
 * closed at once, before a byte is read, and counted as refused.
 */
@ChannelHandler.Sharable
public final class ChannelSetup extends ChannelInitializer<Channel> {
    private final ServerContext server;

    public ChannelSetup(ServerContext server) {
        this.server = server;
    }

    @Override
    protected void initChannel(Channel channel) {
        LoopState loop = server.loop(channel.eventLoop());
        if (!server.tryOpenConnection()) {
            loop.counters.count(LoopCounters.Event.CONNECTION_REFUSED);
            channel.close();
            return;
        }
        loop.counters.count(LoopCounters.Event.CONNECTION_OPENED);
        channel.closeFuture().addListener(f -> server.connectionClosed());
        channel.pipeline().addLast(new Connection(server, loop));
    }
}
