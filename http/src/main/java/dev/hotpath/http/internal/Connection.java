package dev.hotpath.http.internal;

import dev.hotpath.http.AsyncHandler;
import dev.hotpath.http.ContentType;
import dev.hotpath.http.DirectHandler;
import dev.hotpath.http.Handler;
import dev.hotpath.http.HeaderArena;
import dev.hotpath.http.LateAnswer;
import dev.hotpath.http.Method;
import dev.hotpath.http.Response;
import dev.hotpath.http.RouteHandler;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * One HTTP/1.1 connection: accumulates inbound bytes, drains every complete request from them per
 * read (pipelining), runs handlers, and writes every response of the batch into one outbound buffer
 * flushed once, at the end of the read.
 *
 * <p>Order: responses leave in request order. While an async response is open, later responses queue
 * behind it as {@link PendingResponse}s; completions from other threads schedule one drain task on
 * this connection's loop (however many complete at once), which sends the queue up to the first
 * unfinished entry and flushes once. An entry completed with a {@link LateAnswer} is written by that
 * drain, through the loop's {@link DirectResponder}, in place at its turn.
 *
 * <p>Backpressure: reading stops while {@code maxPendingResponses} responses wait or while the channel
 * is not writable (the peer does not read), and resumes, decoding what is already buffered, once both
 * clear. Half-close (RFC 9112 §9.6): when the peer shuts its output (FIN), every complete request
 * already received, buffered or paused behind backpressure, is still answered in order; a partial
 * request is dropped, and the connection closes once the last response is flushed. This needs
 * {@code ALLOW_HALF_CLOSURE} (see {@link ChannelSetup}); without it Netty closes the channel at the FIN,
 * and io_uring, whose writes complete later, loses even responses already written.
 * Deadlines are checked by the loop's sweep, against the server's clock: a request begun and
 * not finished within {@code requestTimeout} is answered 408; a connection with nothing in flight for
 * {@code idleTimeout} is closed.
 *
 * <p>Confined to the event loop, except {@link #onCompleted}.
 */
final class Connection extends ChannelInboundHandlerAdapter implements Runnable {
    static final int HEAD_REQUEST = 1;
    static final int CLOSE = 2;
    static final int HTTP10_KEEP_ALIVE = 4;

    private static final System.Logger LOG = System.getLogger(Connection.class.getName());
    private static final AtomicIntegerFieldUpdater<Connection> DRAIN_SCHEDULED =
        AtomicIntegerFieldUpdater.newUpdater(Connection.class, "drainScheduled");
    private static final Response INTERNAL_ERROR =
        Response.json(500, "{\"error\":\"internal_error\",\"message\":\"the handler failed\"}");
    private static final Response OVERLOADED = Response.builder(503).header("Retry-After", "1")
        .body("application/json", "{\"error\":\"overloaded\",\"message\":\"too many requests in flight\"}"
            .getBytes(java.nio.charset.StandardCharsets.US_ASCII));

    private final ServerContext server;
    private final LoopState loop;
    private final RequestDecoder decoder;
    private ChannelHandlerContext ctx;
    private ByteBuf inbound;
    private ByteBuf outbound;
    private ArrayDeque<PendingResponse> pending;
    private Router.RouteEntry route;
    /** No more requests are read; the connection closes once the responses owed are out. */
    private boolean closing;
    private boolean closed;
    /** The peer half-closed: no more bytes come; what is buffered is answered, then {@link #closing}. */
    private boolean inputShutdown;
    private boolean readPaused;
    /**
     * A {@link LateAnswer} is being written at its turn: its answer goes out now, whatever queues
     * behind it. Nothing between setting and clearing it may decode a request (a flush could, through
     * a writability change): that request's answer would jump the queue.
     */
    private boolean writingInTurn;
    private long requestStartedAt = -1;
    private long lastActivityAt;
    @SuppressWarnings("unused") // through DRAIN_SCHEDULED
    private volatile int drainScheduled;
    Connection prev;
    Connection next;

    Connection(ServerContext server, LoopState loop) {
        this.server = server;
        this.loop = loop;
        this.decoder = new RequestDecoder(server.limits);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        lastActivityAt = server.clock.millis();
        loop.add(this);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        closing = true;
        closed = true;
        loop.remove(this);
        if (inbound != null) {
            inbound.release();
            inbound = null;
        }
        if (outbound != null) {
            outbound.release();
            outbound = null;
        }
        decoder.releaseBody();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf data = (ByteBuf) msg;
        if (closing) {
            data.release();
            return;
        }
        inbound = inbound == null ? data : ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(ctx.alloc(), inbound, data);
        lastActivityAt = server.clock.millis();
        if (requestStartedAt < 0) {
            requestStartedAt = lastActivityAt;
        }
        processInbound();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        flushOutbound();
        loop.turn.runIfDue(); // between two reads
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        maybeResumeReading();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof ChannelInputShutdownEvent) {
            inputShutdown = true;
            processInbound();
            flushOutbound();
        } else {
            ctx.fireUserEventTriggered(event);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!(cause instanceof IOException)) {
            LOG.log(System.Logger.Level.WARNING, "closing connection after an unexpected error", cause);
        }
        closeNow();
    }

    /** Decodes and answers every complete request in the inbound buffer, until it runs out or reading pauses. */
    private void processInbound() {
        while (!closing && !readPaused && inbound != null) {
            if (pending != null && pending.size() >= server.limits.maxPendingResponses()) {
                pauseReading();
                break;
            }
            RequestDecoder.Event event = decoder.decode(inbound, loop.head, this);
            if (event == RequestDecoder.Event.REQUEST) {
                onRequest();
            } else if (event == RequestDecoder.Event.HEAD) {
                onHead();
            } else if (event == RequestDecoder.Event.REJECTED) {
                reject(decoder.rejection());
            } else {
                break;
            }
        }
        if (inputShutdown && !readPaused) {
            closing = true; // every complete request is decoded; what is left can never complete
        }
        if (inbound != null && !decoder.inRequest(inbound)) {
            inbound.release();
            inbound = null;
            requestStartedAt = -1;
        }
    }

    private void onHead() {
        RequestHead head = loop.head;
        route = head.isAsteriskTarget() ? null : server.router.find(head);
        int limit = route == null ? server.limits.maxBodyBytes() : route.maxBody(head.method());
        Rejection rejection = decoder.acceptBody(limit);
        if (rejection != null) {
            reject(rejection);
            return;
        }
        if (head.expectsContinue() && decoder.awaitingBody(inbound) && noPending()) {
            ResponseEncoder.encodeContinue(outbound());
            flushOutbound();
        }
    }

    private void onRequest() {
        RequestHead head = loop.head;
        if (!head.isParseOf(this, inbound, inbound.readerIndex())) {
            decoder.reparse(inbound, head, this);
            route = head.isAsteriskTarget() ? null : server.router.find(head);
        }
        decoder.attachBody(inbound, head);
        boolean close = !head.keepAlive() || server.draining;
        int flags = (head.method() == Method.HEAD ? HEAD_REQUEST : 0) | (close ? CLOSE : 0)
            | (head.isHttp10() && !close ? HTTP10_KEEP_ALIVE : 0);
        dispatch(head, flags);
        head.release();
        decoder.finishRequest(inbound);
        requestStartedAt = inbound.isReadable() ? lastActivityAt : -1;
        if (close) {
            closing = true;
        }
    }

    private void dispatch(RequestHead head, int flags) {
        if (head.isAsteriskTarget()) {
            respond(server.router.asteriskOptions(), flags, null);
            return;
        }
        if (route == null) {
            respond(server.router.notFound(), flags, null);
            return;
        }
        RouteHandler handler = route.handler(head.method());
        if (handler == null) {
            respond(route.methodNotAllowed(), flags, null);
            return;
        }
        int chain = route.chainId(head.method());
        FilterExchange exchange = null;
        if (chain >= 0) {
            exchange = loop.exchange;
            exchange.begin(head, loop.chains[chain], System.nanoTime());
            Response early = runFilters(exchange, head);
            if (early != null) {
                respond(early, flags, exchange);
                return;
            }
        }
        if (handler instanceof Handler sync) {
            respond(callSync(sync, head), flags, exchange);
        } else if (handler instanceof DirectHandler direct) {
            callDirect(direct, head, flags, exchange);
        } else {
            callAsync((AsyncHandler) handler, head, flags, exchange);
        }
    }

    /** Runs the chain's {@code before}s; the answer of the one that answered (a failure's 500), or null to go on. */
    private Response runFilters(FilterExchange exchange, RequestHead head) {
        try {
            return exchange.runBefore();
        } catch (RuntimeException | LinkageError | StackOverflowError e) {
            LOG.log(System.Logger.Level.ERROR, "filter failed for " + head.method() + " " + head.path(), e);
            loop.counters.count(LoopCounters.Event.HANDLER_FAILED);
            return INTERNAL_ERROR;
        }
    }

    private Response callSync(Handler handler, RequestHead head) {
        try {
            Response response = handler.handle(head);
            if (response != null) {
                return response;
            }
            LOG.log(System.Logger.Level.ERROR, "handler returned no response for " + head.method() + " " + head.path());
        } catch (RuntimeException | LinkageError | StackOverflowError e) {
            LOG.log(System.Logger.Level.ERROR, "handler failed for " + head.method() + " " + head.path(), e);
        }
        loop.counters.count(LoopCounters.Event.HANDLER_FAILED);
        return INTERNAL_ERROR;
    }

    private void callDirect(DirectHandler handler, RequestHead head, int flags, FilterExchange exchange) {
        DirectResponder responder = loop.responder;
        responder.begin(this, flags, exchange);
        boolean failed = false;
        try {
            handler.handle(head, responder);
        } catch (RuntimeException | LinkageError | StackOverflowError e) {
            LOG.log(System.Logger.Level.ERROR, "handler failed for " + head.method() + " " + head.path(), e);
            failed = true;
            if (responder.deferred() != null) {
                responder.deferred().completeIfOpen(INTERNAL_ERROR);
            }
        }
        endResponderCall(responder, failed, head, flags, exchange);
    }

    /**
     * Ends a call that answered through the loop's responder (a direct handler's, or a late answer's,
     * for which {@code head} is null): one that gave no complete answer is answered {@code 500} in its
     * place, and a call that failed either way is counted.
     */
    private void endResponderCall(DirectResponder responder, boolean failed, RequestHead head, int flags, FilterExchange exchange) {
        if (!responder.finish()) {
            if (!failed) {
                LOG.log(System.Logger.Level.ERROR, "no complete response was given for "
                    + (head == null ? "an async answer written on its loop" : head.method() + " " + head.path()));
            }
            failed = true;
            respond(INTERNAL_ERROR, flags, exchange);
        }
        if (failed) {
            loop.counters.count(LoopCounters.Event.HANDLER_FAILED);
        }
    }

    private void callAsync(AsyncHandler handler, RequestHead head, int flags, FilterExchange exchange) {
        PendingResponse slot = admitAsync(flags, exchange);
        if (slot == null) {
            return;
        }
        try {
            handler.handle(head, slot);
        } catch (RuntimeException | LinkageError | StackOverflowError e) {
            LOG.log(System.Logger.Level.ERROR, "async handler failed for " + head.method() + " " + head.path(), e);
            loop.counters.count(LoopCounters.Event.HANDLER_FAILED);
            slot.completeIfOpen(INTERNAL_ERROR);
        }
    }

    /**
     * The response slot of an async answer (an {@link AsyncHandler}'s, or a direct handler's
     * {@link DirectResponder#defer()}), queued in request order, when the server's in-flight limit
     * admits one; otherwise answers 503 with {@code Retry-After} and returns null. A chained request's
     * slot carries a copy of its exchange, for the chain's {@code after}s when the answer is written.
     */
    PendingResponse admitAsync(int flags, FilterExchange exchange) {
        if (!server.tryAdmitAsync()) {
            loop.counters.count(LoopCounters.Event.OVERLOADED);
            respond(OVERLOADED, flags, exchange);
            return null;
        }
        PendingResponse slot = new PendingResponse(this, flags, exchange == null ? null : exchange.copy());
        enqueue(slot);
        return slot;
    }

    /**
     * Sends now when nothing is owed before it, else queues behind what is; {@code exchange} is the
     * request's filter chain (null: none), whose headers go with the answer and whose {@code after}s
     * run once it is written.
     */
    void respond(Response response, int flags, FilterExchange exchange) {
        if (mayWriteNow()) {
            write(response, flags, exchange);
        } else {
            enqueue(new PendingResponse(this, flags, response, exchange == null ? null : exchange.copy()));
        }
    }

    /** {@link #respond} for a redirect from an arena: encoded in place, or copied out to queue. */
    void respondRedirect(int status, HeaderArena arena, long location, int flags, FilterExchange exchange) {
        if (mayWriteNow()) {
            ResponseEncoder.encodeRedirect(outbound(), status, arena, location, server.date,
                (flags & CLOSE) != 0, (flags & HTTP10_KEEP_ALIVE) != 0, exchange);
            loop.counters.countStatus(status);
            if (exchange != null) {
                exchange.finish(status);
            }
        } else {
            enqueue(new PendingResponse(this, flags, Response.redirect(status, arena.value(location)),
                exchange == null ? null : exchange.copy()));
        }
    }

    /**
     * Starts a streamed answer ({@link DirectResponder#stream}): its head encoded in place when nothing
     * is owed before it, the body then written behind it; otherwise gathered to queue at its end. A
     * length the buffer cannot take throws with nothing of the answer left in the buffer.
     */
    void startStream(StreamedBody body, int status, ContentType type, int length, int flags, FilterExchange exchange) {
        body.status = status;
        body.type = type;
        body.flags = flags;
        body.exchange = exchange;
        boolean headRequest = (flags & HEAD_REQUEST) != 0;
        if (mayWriteNow()) {
            ByteBuf out = outbound();
            int cutAt = out.writerIndex();
            try {
                ResponseEncoder.encodeStreamedHead(out, status, type, length, server.date, (flags & CLOSE) != 0,
                    (flags & HTTP10_KEEP_ALIVE) != 0, exchange);
                if (!headRequest) {
                    out.ensureWritable(length); // past the buffer's capacity: refused here, the head cut below
                }
            } catch (RuntimeException | Error e) {
                out.writerIndex(cutAt);
                body.clear();
                throw e;
            }
            body.beginInPlace(out, cutAt, headRequest, length);
        } else {
            body.beginQueued(length);
        }
    }

    /**
     * Ends a streamed answer when its handler returns. A complete one is counted (in place) or queued;
     * one whose body was left short is cut out of the outbound buffer, and false returned: the request
     * is then answered as if the handler had given nothing.
     */
    boolean endStream(StreamedBody body) {
        try {
            if (!body.end()) {
                LOG.log(System.Logger.Level.ERROR, "a streamed body ended after " + body.written() + " of its declared "
                    + body.declared() + " bytes");
                if (body.outbound != null) {
                    body.outbound.writerIndex(body.cutAt);
                }
                return false;
            }
            if (body.outbound != null) {
                loop.counters.countStatus(body.status);
                if (body.exchange != null) {
                    body.exchange.finish(body.status);
                }
            } else {
                Response answer = Response.of(body.status, body.type.mediaType(), body.gathered());
                enqueue(new PendingResponse(this, body.flags, answer, body.exchange == null ? null : body.exchange.copy()));
            }
            return true;
        } finally {
            body.clear();
        }
    }

    private void write(Response response, int flags, FilterExchange exchange) {
        ResponseEncoder.encode(outbound(), response, server.date, (flags & HEAD_REQUEST) != 0,
            (flags & CLOSE) != 0, (flags & HTTP10_KEEP_ALIVE) != 0, exchange);
        loop.counters.countStatus(response.status());
        if (exchange != null) {
            exchange.finish(response.status());
        }
    }

    /**
     * Writes a {@link LateAnswer} at its turn, through the loop's responder as a direct handler's answer
     * is written; one that fails or gives no complete answer is answered {@code 500} in its place.
     */
    private void writeLate(LateAnswer answer, int flags, FilterExchange exchange) {
        DirectResponder responder = loop.responder;
        responder.beginLate(this, flags, exchange);
        writingInTurn = true;
        try {
            boolean failed = false;
            try {
                answer.answer(responder);
            } catch (RuntimeException | LinkageError | StackOverflowError e) {
                LOG.log(System.Logger.Level.ERROR, "an async answer failed as its loop wrote it", e);
                failed = true;
            }
            endResponderCall(responder, failed, null, flags, exchange);
        } finally {
            writingInTurn = false;
        }
    }

    private void reject(Rejection rejection) {
        loop.counters.countRejection(rejection);
        closing = true;
        ctx.channel().config().setAutoRead(false);
        respond(rejection.response(), CLOSE, null);
    }

    private void enqueue(PendingResponse response) {
        if (pending == null) {
            pending = new ArrayDeque<>(8);
        }
        pending.add(response);
    }

    private boolean noPending() {
        return pending == null || pending.isEmpty();
    }

    /** Whether an answer goes into the outbound buffer now: nothing is owed before it. */
    private boolean mayWriteNow() {
        return writingInTurn || noPending();
    }

    private ByteBuf outbound() {
        if (outbound == null) {
            outbound = ctx.alloc().ioBuffer(1024);
        }
        return outbound;
    }

    /** Writes and flushes what the batch produced; closes once nothing more is owed on a closing connection. */
    private void flushOutbound() {
        if (closed) {
            return;
        }
        if (server.draining && !closing && requestStartedAt < 0 && noPending()) {
            closing = true;
        }
        boolean closeNow = closing && noPending();
        if (outbound != null) {
            ByteBuf batch = outbound;
            outbound = null;
            if (closeNow) {
                closed = true;
                ctx.writeAndFlush(batch).addListener(ChannelFutureListener.CLOSE);
            } else {
                // Nothing waits on this write: the void promise spares a future per flush (most of
                // what a request allocated), and a failed write reaches exceptionCaught, which closes.
                ctx.writeAndFlush(batch, ctx.voidPromise());
                if (!ctx.channel().isWritable()) {
                    pauseReading();
                }
            }
        } else if (closeNow) {
            // Bytes of earlier batches may still wait in the channel's outbound buffer (a large answer
            // to a client that half-closed): close behind them, not over them.
            closed = true;
            ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }

    private void pauseReading() {
        if (!readPaused) {
            readPaused = true;
            ctx.channel().config().setAutoRead(false);
        }
    }

    private void maybeResumeReading() {
        if (readPaused && !closing && ctx.channel().isWritable()
            && (pending == null || pending.size() < server.limits.maxPendingResponses())) {
            readPaused = false;
            if (!inputShutdown) { // after the FIN there is nothing to read, and epoll fails to re-arm the socket
                ctx.channel().config().setAutoRead(true);
            }
            processInbound();
            flushOutbound();
        }
    }

    /** An async response completed, on any thread: make sure one drain runs on this connection's loop. */
    void onCompleted() {
        server.asyncCompleted();
        if (DRAIN_SCHEDULED.compareAndSet(this, 0, 1)) {
            if (ctx.executor().inEventLoop()) {
                try {
                    loop.turn.execute(this); // completed by a task of the turn: out with that task's run
                } catch (RejectedExecutionException e) {
                    // The loop is shutting down: its connections are gone with it.
                }
            } else {
                CompletionBatch.schedule(loop.turn, this);
            }
        }
    }

    /** The drain task: sends every finished response at the head of the queue, in order, with one flush. */
    @Override
    public void run() {
        drainScheduled = 0;
        if (closed || pending == null) {
            return;
        }
        try {
            PendingResponse next;
            Object answer;
            while ((next = pending.peek()) != null && (answer = next.answer()) != null) {
                pending.poll();
                if (answer instanceof Response response) {
                    write(response, next.flags, next.exchange);
                } else {
                    writeLate((LateAnswer) answer, next.flags, next.exchange);
                }
            }
        } catch (Throwable e) {
            // An Error a late answer threw, which a direct handler's would take to exceptionCaught: that
            // answer may be written in part and those behind it are not sent, so the connection cannot go on.
            LOG.log(System.Logger.Level.ERROR, "writing the answers owed failed; the connection is closed", e);
            closeNow();
            return;
        }
        lastActivityAt = server.clock.millis();
        flushOutbound();
        maybeResumeReading();
    }

    /** Deadline sweep: 408 for a request begun too long ago, close for a connection idle too long. */
    void checkDeadlines(long now) {
        if (closing) {
            return;
        }
        if (requestStartedAt >= 0) {
            if (!readPaused && now - requestStartedAt >= server.limits.requestTimeout().toMillis()) {
                reject(Rejection.REQUEST_TIMEOUT);
                flushOutbound();
            }
        } else if (noPending() && now - lastActivityAt >= server.limits.idleTimeout().toMillis()) {
            loop.counters.count(LoopCounters.Event.IDLE_CLOSED);
            closeNow();
        }
    }

    /** For shutdown: closes the connection if nothing is in flight on it. */
    void closeIfIdle() {
        if (requestStartedAt < 0 && noPending()) {
            closeNow();
        }
    }

    void closeNow() {
        closing = true;
        if (!closed) {
            closed = true;
            ctx.close();
        }
    }
}
