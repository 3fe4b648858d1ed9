package dev.hotpath.apps.messages.internal;

import dev.hotpath.http.Deferred;
import dev.hotpath.http.JsonBytes;
import dev.hotpath.http.Request;
import dev.hotpath.http.Response;
import dev.hotpath.store.GroupCommitConfig;
import dev.hotpath.store.GroupCommitWriter;
import dev.hotpath.store.SqliteDatabase;
import io.lettuce.core.api.StatefulRedisConnection;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The messages API behind its routes: creates are checked on the event loop, given an id
 * ({@link MessageIds}) and queued on the group-commit writer, which answers each after its commit;
 * reads run on the loop that received them from that loop's {@link MessageReads}. A read whose
 * connection fails (or cannot be opened) is {@code 503 store_unavailable}, never a 500. Owns the writer and
 * the read connections from construction on; {@link #close()} commits what is queued and releases
 * both.
 */
public final class MessagesService implements AutoCloseable {
    /** Writes waiting for the writer before {@code POST /message} answers {@code 503 overloaded}. */
    public static final int QUEUE_CAPACITY = 8192;
    private static final Response READY = Response.json(200, "{\"status\":\"ready\"}");
    private static final Response HEALTHY = Response.json(200, "{\"status\":\"ok\"}");

    private final Path database;
    private final MessageIds ids;
    private final WriterObserver observer = new WriterObserver();
    private final GroupCommitWriter writer;
    private final MessagesMetrics metrics;
    private final MessageStream stream;
    private final StreamMetrics streamMetrics = new StreamMetrics();
    private StreamWorker worker;
    private final Response streamDown;
    private final List<Connection> readConnections = new CopyOnWriteArrayList<>();
    private final ThreadLocal<MessageReads> reads;
    private volatile boolean draining;

    /**
     * @param writeConnection the database's write connection with the schema in place, owned by the
     *     writer from now on
     * @param queueCapacity writes waiting before {@code 503 overloaded}; {@link #QUEUE_CAPACITY} but in tests
     */
    public MessagesService(Path database, Connection writeConnection, int maxBatch, int queueCapacity, Clock clock) {
        this(database, writeConnection, maxBatch, queueCapacity, clock, null);
    }

    /** @param stream where {@code POST /message-fast} appends, or null without {@code --stream} */
    public MessagesService(Path database, Connection writeConnection, int maxBatch, int queueCapacity, Clock clock,
                           MessageStream stream) {
        this.database = database;
        this.stream = stream;
        this.streamDown = Refusal.STREAM_UNAVAILABLE.response(
            "the stream did not take the message in time; retry, or POST /message to store it directly", true);
        this.ids = new MessageIds(clock);
        this.writer = new GroupCommitWriter(writeConnection, GroupCommitConfig.named("messages-writer")
            .withQueueCapacity(queueCapacity).withMaxBatch(maxBatch).withListener(observer)
            .withAcknowledgements(observer));
        this.metrics = new MessagesMetrics(observer, this::writerStats);
        this.reads = ThreadLocal.withInitial(this::openReads);
    }

    private MessageReads openReads() {
        try {
            Connection c = SqliteDatabase.openForReading(database);
            readConnections.add(c);
            return new MessageReads(c);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot open a read connection on " + database, e);
        }
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
        worker = new StreamWorker(connection, writer, observer, streamMetrics, settings);
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
        if (!writer.offer(new StoreMessage(message, response, observer, metrics))) {
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

    /** {@code GET /messages/{id}}: a path that is not a UUID names no message either, so 404. */
    public Response read(Request request) {
        MessageId id = MessageId.parse(request.pathParam(0));
        try {
            Message message = id == null ? null : reads.get().byId(id);
            if (message == null) {
                return metrics.refused(Refusal.NOT_FOUND).response();
            }
            return JsonBytes.response(200, message::writeTo);
        } catch (SQLException | RuntimeException e) {
            return metrics.refused(Refusal.STORE_UNAVAILABLE).response();
        }
    }

    /** {@code GET /messages?to=|from=&limit=&before=}. */
    public Response list(Request request) {
        ListQuery query;
        try {
            query = ListQuery.parse(request.query());
        } catch (Refusal.Refused refused) {
            metrics.refused(refused.refusal());
            return refused.response();
        }
        try {
            return Response.of(200, "application/json", reads.get().page(query));
        } catch (SQLException | RuntimeException e) {
            return metrics.refused(Refusal.STORE_UNAVAILABLE).response();
        }
    }

    /** {@code GET /health}: the process answers and its loop's read connection runs {@code SELECT 1}. */
    public Response health(Request request) {
        try {
            reads.get().ping();
            return HEALTHY;
        } catch (SQLException | RuntimeException e) {
            return Response.of(503, "application/json", JsonBytes.write(json -> {
                json.writeStartObject();
                json.writeStringField("status", "degraded");
                json.writeStringField("error", String.valueOf(e.getMessage()));
                json.writeEndObject();
            }));
        }
    }

    /** {@code GET /ready}: 200 until {@link #beginDrain()}, then {@code 503 not_ready}. */
    public Response ready(Request request) {
        return draining ? metrics.refused(Refusal.NOT_READY).response() : READY;
    }

    public void beginDrain() {
        draining = true;
    }

    /** Stops the stream worker, commits what is queued, stops the writer, closes every read connection. */
    @Override
    public void close() {
        if (worker != null) {
            worker.close();
        }
        writer.close();
        for (Connection c : readConnections) {
            try {
                c.close();
            } catch (SQLException e) {
                // closing anyway
            }
        }
    }
}
