package dev.hotpath.http.internal;

import dev.hotpath.http.Filter;
import dev.hotpath.http.FilterChain;
import dev.hotpath.http.ServerLimits;
import io.netty.util.concurrent.EventExecutor;
import java.time.Clock;
import java.util.function.Consumer;

/**
 * What one event loop shares among its connections: the reusable {@link RequestHead},
 * {@link DirectResponder} and {@link FilterExchange}, its own instances of every filter chain, its
 * counters, the tasks its handlers leave for the end of its turn, and the list of its open connections
 * (intrusive, so tracking a connection allocates nothing). Confined to the loop's thread.
 */
final class LoopState {
    final RequestHead head;
    final LoopCounters counters = new LoopCounters();
    final DirectResponder responder = new DirectResponder();
    final FilterExchange exchange;
    /** This loop's filters of each chain, indexed by the router's chain id. */
    final Filter[][] chains;
    final TurnTasks turn;
    private Connection first;

    LoopState(ServerLimits limits, Router router, EventExecutor executor, Clock clock) {
        head = new RequestHead(limits);
        turn = new TurnTasks(executor, clock);
        exchange = new FilterExchange(limits.maxRequestLineBytes());
        chains = router.chains().stream().map(FilterChain::instantiate).toArray(Filter[][]::new);
    }

    void add(Connection c) {
        c.next = first;
        if (first != null) {
            first.prev = c;
        }
        first = c;
    }

    void remove(Connection c) {
        if (c.prev != null) {
            c.prev.next = c.next;
        } else if (first == c) {
            first = c.next;
        }
        if (c.next != null) {
            c.next.prev = c.prev;
        }
        c.prev = null;
        c.next = null;
    }

    /** Visits every connection; the action may close (and so unlink) the one it is given. */
    void forEach(Consumer<Connection> action) {
        Connection c = first;
        while (c != null) {
            Connection next = c.next;
            action.accept(c);
            c = next;
        }
    }
}
