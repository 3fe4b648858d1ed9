package dev.hotpath.apps.messages.internal;

import dev.hotpath.http.Deferred;
import dev.hotpath.http.JsonBytes;
import dev.hotpath.http.Request;
import dev.hotpath.http.Response;
import dev.hotpath.store.GroupCommitConfig;
import dev.hotpath.store.GroupCommitWriter;
import dev.hotpath.store.SqliteDatabase;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
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
    private final List<Connection> readConnections = new CopyOnWriteArrayList<>();
    private final ThreadLocal<MessageReads> reads;
    private volatile boolean draining;

    /**
     * @param writeConnection the database's write connection with the schema in place, owned by the
     *     writer from now on
     * @param queueCapacity writes waiting before {@code 503 overloaded}; {@link #QUEUE_CAPACITY} but in tests
     */
    public MessagesService(Path database, Connection writeConnection, int maxBatch, int queueCapacity, Clock clock) {
        this.database = database;
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

    /** The writer's counters, read without stopping it. */
    public GroupCommitWriter.Stats writerStats() {
        return writer.stats();
    }

    /** {@code POST /message}: 201 after the commit, or the refusal. */
    public void create(Request request, Deferred response) {
        if (!request.declaresJsonOrNothing()) {
            response.complete(metrics.refused(Refusal.UNSUPPORTED_MEDIA_TYPE).response());
            return;
        }
        NewMessage asked;
        try {
            asked = MessageRequests.parse(request.bodyBytes());
        } catch (Refusal.Refused refused) {
            metrics.refused(refused.refusal());
            response.complete(refused.response());
            return;
        }
        Message message = Message.create(ids.next(), asked);
        if (!writer.offer(new StoreMessage(message, response, observer, metrics))) {
            response.complete(metrics.refused(Refusal.OVERLOADED).response());
        }
    }

    /** {@code POST /message-fast} without a stream: always {@code 503 stream_unavailable}. */
    public Response createFast(Request request) {
        return metrics.refused(Refusal.STREAM_UNAVAILABLE).response();
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

    /** Commits what is queued, stops the writer, closes every read connection. */
    @Override
    public void close() {
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
