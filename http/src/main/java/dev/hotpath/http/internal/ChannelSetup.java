package dev.hotpath.http.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;

/**
 * Admits a new connection: within {@code maxConnections} it gets a {@link Connection}; beyond it, it is
 * closed at once, before a byte is read, and counted as refused.
 *
 * <p>Half-closure is allowed so that a peer's FIN reaches {@link Connection} as an input shutdown
 * instead of closing the channel under the responses it is still owed.
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
        channel.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
        channel.closeFuture().addListener(f -> server.connectionClosed());
        channel.pipeline().addLast(new Connection(server, loop));
    }
}
