package dev.hotpath.apps.messages.internal;

import dev.hotpath.http.AsyncHandler;
import dev.hotpath.http.Deferred;
import dev.hotpath.http.Handler;
import dev.hotpath.http.JsonBytes;
import dev.hotpath.http.Request;
import dev.hotpath.http.Response;
import dev.hotpath.http.RouteHandler;
import dev.hotpath.store.GroupCommitConfig;
import dev.hotpath.store.GroupCommitWriter;
import io.lettuce.core.api.StatefulRedisConnection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The messages API behind its routes: creates are checked on the event loop, given an id
 * ({@link MessageIds}) and queued on the group-commit writer, which answers each after its commit.
 * Reads are taken from their request on the loop and answered from the {@link MessageStore}: on that
 * same loop when the store's reads never wait on a network (SQLite), else on {@link ReadThreads} through
 * the request's {@link Deferred} (PostgreSQL), so no loop ever waits on a database server. A read
 * whose connection fails (or cannot be opened) is {@code 503 store_unavailable}, never a 500. Owns the
 * store, its writer and the read threads from construction on; {@link #close()} commits what is queued
 * and releases them all.
 */
public final class MessagesService implements AutoCloseable {
    /** Writes waiting for the writer before {@code POST /message} answers {@code 503 overloaded}. */
    public static final int QUEUE_CAPACITY = 8192;
    private static final Response READY = Response.json(200, "{\"status\":\"ready\"}");
    private static final Response HEALTHY = Response.json(200, "{\"status\":\"ok\"}");
    private static final Response READS_OVERLOADED =
        Refusal.OVERLOADED.response("too many reads are waiting; retry shortly");

    private final MessageStore store;
    private final MessageIds ids;
    private final WriterObserver observer = new WriterObserver();
    private final GroupCommitWriter writer;
    private final MessagesMetrics metrics;
    private final MessageStream stream;
    private final StreamMetrics streamMetrics = new StreamMetrics();
    private StreamWorker worker;
    private final Response streamDown;
    /** Null when reads run on the loops. */
    private final ReadThreads readThreads;
    private volatile boolean draining;

    /**
     * @param store where messages are kept, owned by the service from now on
     * @param queueCapacity writes waiting before {@code 503 overloaded}; {@link #QUEUE_CAPACITY} but in tests
     * @throws SQLException when the store's writer cannot be opened (the store is closed then)
     */
    public MessagesService(MessageStore store, int maxBatch, int queueCapacity, Clock clock) throws SQLException {
        this(store, maxBatch, queueCapacity, clock, null);
    }

    /** @param stream where {@code POST /message-fast} appends, or null without {@code --stream} */
    public MessagesService(MessageStore store, int maxBatch, int queueCapacity, Clock clock, MessageStream stream)
        throws SQLException {
        this.store = store;
        this.stream = stream;
        this.streamDown = Refusal.STREAM_UNAVAILABLE.response(
            "the stream did not take the message in time; retry, or POST /message to store it directly", true);
        this.ids = new MessageIds(clock);
        try {
            this.writer = store.openWriter(GroupCommitConfig.named("messages-writer")
                .withQueueCapacity(queueCapacity).withMaxBatch(maxBatch).withListener(observer)
                .withAcknowledgements(observer));
        } catch (SQLException | RuntimeException e) {
            store.close();
            throw e;
        }
        this.metrics = new MessagesMetrics(observer, this::writerStats);
        this.readThreads = store.readThreads() == 0 ? null : new ReadThreads(store.readThreads(),
            ReadThreads.QUEUE_CAPACITY, () -> {
                metrics.refused(Refusal.OVERLOADED);
                return READS_OVERLOADED;
            });
    }

    public MessagesMetrics metrics() {
        return metrics;
    }

    /** The stream path's metrics (all but {@code accepted} are the in-process worker's). */
    public StreamMetrics streamMetrics() {
        return streamMetrics;
    }

    /** The writer, shared with an in-process stream worker. */
    public GroupCommitWriter writer() {
        return writer;
    }

    /** Where the messages are kept. */
    public MessageStore store() {
        return store;
    }

    /**
     * Starts a stream worker on this service's writer, owned by the service from now on: {@link #close()}
     * stops it before the writer.
     *
     * @param connection a Redis connection of the worker's own
     */
    public StreamWorker startWorker(StatefulRedisConnection<String, String> connection, StreamWorker.Settings settings) {
        if (worker != null) {
            throw new IllegalStateException("a worker runs already");
        }
        worker = new StreamWorker(connection, writer, store, observer, streamMetrics, settings);
        return worker;
    }

    /** Whether {@code POST /message-fast} appends to a stream. */
    public boolean streaming() {
        return stream != null;
    }

    /** The writer's counters, read without stopping it. */
    public GroupCommitWriter.Stats writerStats() {
        return writer.stats();
    }

    /** {@code POST /message}: 201 after the commit, or the refusal. */
    public void create(Request request, Deferred response) {
        NewMessage asked = checked(request, response);
        if (asked == null) {
            return;
        }
        Message message = Message.create(ids.next(), asked);
        if (!writer.offer(new StoreMessage(store, message, response, observer, metrics))) {
            response.complete(metrics.refused(Refusal.OVERLOADED).response());
        }
    }

    /** The message {@code request} asks for, or null once {@code response} holds the refusal. */
    private NewMessage checked(Request request, Deferred response) {
        if (!request.declaresJsonOrNothing()) {
            response.complete(metrics.refused(Refusal.UNSUPPORTED_MEDIA_TYPE).response());
            return null;
        }
        try {
            return MessageRequests.parse(request.bodyBytes());
        } catch (Refusal.Refused refused) {
            metrics.refused(refused.refusal());
            response.complete(refused.response());
            return null;
        }
    }

    /** {@code POST /message-fast} without a stream: always {@code 503 stream_unavailable}. */
    public Response createFast(Request request) {
        return metrics.refused(Refusal.STREAM_UNAVAILABLE).response();
    }

    /**
     * {@code POST /message-fast} with a stream: checked as {@code POST /message}, then appended with
     * {@code XADD} and answered {@code 202} once Redis has the entry, or {@code 503 stream_unavailable}
     * with {@code Retry-After} when Redis fails or does not answer within its command timeout. Never
     * waits on the event loop.
     */
    public void createStreamed(Request request, Deferred response) {
        NewMessage asked = checked(request, response);
        if (asked == null) {
            return;
        }
        Message message = Message.create(ids.next(), asked);
        CompletionStage<String> appended;
        try {
            appended = stream.append(message);
        } catch (RuntimeException e) {
            appended = CompletableFuture.failedFuture(e);
        }
        appended.whenComplete((entryId, failure) -> {
            if (failure == null) {
                streamMetrics.accepted.increment();
                response.complete(JsonBytes.response(202, message::writeTo));
            } else {
                metrics.refused(Refusal.STREAM_UNAVAILABLE);
                response.complete(streamDown);
            }
        });
    }

    /** {@code GET /messages/{id}}. */
    public RouteHandler readRoute() {
        return readRoute(this::read, this::storeUnavailable);
    }

    /** {@code GET /messages?to=|from=&limit=&before=}. */
    public RouteHandler listRoute() {
        return readRoute(this::list, this::storeUnavailable);
    }

    /** {@code GET /health}: the process answers and a read connection of the store runs {@code SELECT 1}. */
    public RouteHandler healthRoute() {
        return readRoute(request -> reads -> {
            reads.ping();
            return HEALTHY;
        }, MessagesService::degraded);
    }

    /** A path that is not a UUID names no message either, so 404. */
    private MessageStore.Read<Response> read(Request request) {
        MessageId id = MessageId.parse(request.pathParam(0));
        if (id == null) {
            return new Answered(metrics.refused(Refusal.NOT_FOUND).response());
        }
        return reads -> {
            Message message = reads.byId(id);
            if (message == null) {
                return metrics.refused(Refusal.NOT_FOUND).response();
            }
            return JsonBytes.response(200, message::writeTo);
        };
    }

    private MessageStore.Read<Response> list(Request request) {
        ListQuery query;
        try {
            query = ListQuery.parse(request.query());
        } catch (Refusal.Refused refused) {
            metrics.refused(refused.refusal());
            return new Answered(refused.response());
        }
        return reads -> Response.of(200, "application/json", reads.page(query));
    }

    /**
     * A read route: {@code lookup} takes what it needs from the request on the loop (the request is the
     * engine's, valid only during the call); the read itself runs there too when the store's reads never
     * wait, else on the read threads, answered through the request's {@link Deferred}.
     */
    private RouteHandler readRoute(Function<Request, MessageStore.Read<Response>> lookup,
                                   Function<Exception, Response> failed) {
        if (readThreads == null) {
            return (Handler) request -> answer(lookup.apply(request), failed);
        }
        return (AsyncHandler) (request, response) -> {
            MessageStore.Read<Response> read = lookup.apply(request);
            if (read instanceof Answered answered) {
                response.complete(answered.response());
            } else {
                readThreads.answer(() -> answer(read, failed), response);
            }
        };
    }

    private Response answer(MessageStore.Read<Response> read, Function<Exception, Response> failed) {
        if (read instanceof Answered answered) {
            return answered.response();
        }
        try {
            return store.read(read);
        } catch (SQLException | RuntimeException e) {
            return failed.apply(e);
        }
    }

    private Response storeUnavailable(Exception cause) {
        return metrics.refused(Refusal.STORE_UNAVAILABLE).response();
    }

    private static Response degraded(Exception cause) {
        return JsonBytes.response(503, json -> {
            json.writeStartObject();
            json.writeStringField("status", "degraded");
            json.writeStringField("error", String.valueOf(cause.getMessage()));
            json.writeEndObject();
        });
    }

    /** A read answered from its request alone (a refusal): it touches no connection and never leaves the loop. */
    private record Answered(Response response) implements MessageStore.Read<Response> {
        @Override
        public Response run(MessageReads reads) {
            return response;
        }
    }

    /** {@code GET /ready}: 200 until {@link #beginDrain()}, then {@code 503 not_ready}. */
    public Response ready(Request request) {
        return draining ? metrics.refused(Refusal.NOT_READY).response() : READY;
    }

    public void beginDrain() {
        draining = true;
    }

    /**
     * Stops the stream worker, commits what is queued, stops the writer, finishes the reads queued, and
     * closes the store's read connections.
     */
    @Override
    public void close() {
        if (worker != null) {
            worker.close();
        }
        writer.close();
        if (readThreads != null) {
            readThreads.close();
        }
        store.close();
    }
}
