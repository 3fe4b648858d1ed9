package dev.hotpath.apps.users.internal;

import dev.hotpath.apps.internal.JsonText;
import dev.hotpath.http.BodySink;
import dev.hotpath.http.ContentType;
import dev.hotpath.http.Deferred;
import dev.hotpath.http.LateAnswer;
import dev.hotpath.http.Responder;
import dev.hotpath.http.Response;
import dev.hotpath.store.Durability;
import dev.hotpath.store.GroupCommitConfig;
import dev.hotpath.store.GroupCommitWriter;
import dev.hotpath.store.RowQuery;
import dev.hotpath.store.SqliteDatabase;
import dev.hotpath.store.Transaction;
import dev.hotpath.store.Write;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Users in a SQLite database (scenario S4), {@code users.db} in the data directory. Reads run on the
 * event loop through a read-only connection of each loop's own (a thread-local: SQLite connections are
 * not shared between threads), with the two queries prepared once and each row's text copied from
 * where SQLite holds it into the answer ({@link RowQuery}, {@link UserRowJson}). Creates go to a
 * {@link GroupCommitWriter} with {@code synchronous=FULL}, each inserted through the writer's
 * {@link RowQuery} from the request's bytes: the {@code 201} is sent after the commit holding the row
 * is on disk, and the answers of one commit reach each loop in one hand-off, where each create writes
 * its own {@code 201} ({@link LateAnswer}).
 *
 * <p>Ids come from a counter set to the highest stored id at open; a create that fails leaves a gap,
 * never a reuse. A new database gets the {@link #PRELOADED} users in one transaction, inserted
 * through the same {@link RowQuery} from one buffer: JDBC's batch, with a name and an email string
 * per user, left about 3 MB of start-up garbage, which stays resident (docs/ENGINES.md).
 */
public final class SqliteUsers implements UserStore {
    private static final String INSERT = "INSERT INTO users(id, name, email, created_at) VALUES (?, ?, ?, ?)";
    private static final byte[] PRELOADED_NAME = UserStore.PRELOADED_NAME_PREFIX.getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PRELOADED_DOMAIN = UserStore.PRELOADED_EMAIL_DOMAIN.getBytes(StandardCharsets.US_ASCII);
    private static final Response UNAVAILABLE = Response.builder(503).header("Retry-After", "1")
        .body("application/json", "{\"error\":\"overloaded\",\"message\":\"too many creates queued\"}".getBytes(
            StandardCharsets.US_ASCII));
    private static final Response WRITE_FAILED =
        Response.json(500, "{\"error\":\"internal_error\",\"message\":\"the user could not be stored\"}");
    private static final Response ANSWER_FAILED =
        Response.json(500, "{\"error\":\"internal_error\",\"message\":\"the user was stored, but its answer could not be written\"}");
    /**
     * The most idle creates a loop keeps for reuse: more than a loop has in flight at once but for a
     * burst that fills the writer's queue, whose creates beyond these are left to the collector.
     */
    private static final int MAX_IDLE_CREATES = 256;

    private final Path file;
    private final CreationTimes creationTimes;
    private final AtomicLong lastId;
    private final GroupCommitWriter writer;
    /** Writes each create's {@code 201} from its request's bytes: one per event loop, where the answers are written. */
    private final ThreadLocal<UserRowJson> createdAnswers = ThreadLocal.withInitial(UserRowJson::new);
    /** Each event loop's creates whose answer is written, for its next creates ({@link Create}). */
    private final ThreadLocal<ArrayDeque<Create>> idleCreates = ThreadLocal.withInitial(ArrayDeque::new);
    private final List<Reads> openReads = new CopyOnWriteArrayList<>();
    private final ThreadLocal<Reads> reads = ThreadLocal.withInitial(this::openReads);

    public SqliteUsers(Path dataDir, Clock clock) throws SQLException {
        this.file = dataDir.resolve("users.db");
        this.creationTimes = new CreationTimes(clock);
        Connection db = SqliteDatabase.openForWriting(file, Durability.FULL);
        try {
            this.lastId = new AtomicLong(prepare(db));
        } catch (SQLException | RuntimeException e) {
            db.close();
            throw e;
        }
        this.writer = new GroupCommitWriter(db, GroupCommitConfig.named("users-writer")
            .withAcknowledgements(Deferred::completeTogether));
    }

    /** Creates the table, preloads a new database, and returns the highest id stored. */
    private static long prepare(Connection db) throws SQLException {
        try (Statement s = db.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS users (id INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                + "email TEXT NOT NULL, created_at TEXT NOT NULL)");
            try (ResultSet max = s.executeQuery("SELECT COALESCE(MAX(id), 0) FROM users")) {
                max.next();
                long highest = max.getLong(1);
                if (highest > 0) {
                    db.commit();
                    return highest;
                }
            }
        }
        byte[] createdAt = UserJson.PRELOADED_AT.getBytes(StandardCharsets.US_ASCII);
        JsonText text = new JsonText(64); // the email, the name its first nameLength bytes, written in place
        try (RowQuery insert = RowQuery.prepare(db, INSERT)) {
            for (int id = 1; id <= PRELOADED; id++) {
                text.clear();
                text.append(PRELOADED_NAME);
                text.appendDecimal(id);
                int nameLength = text.size();
                text.append(PRELOADED_DOMAIN);
                insert(insert, id, text.bytes(), nameLength, text.bytes(), text.size(), createdAt);
            }
        }
        db.commit();
        return PRELOADED;
    }

    @Override
    public boolean find(long id, Responder responder) throws SQLException {
        return reads.get().find(id, responder);
    }

    @Override
    public void page(long after, int limit, Responder responder) throws SQLException {
        reads.get().page(after, limit, responder);
    }

    /**
     * Queues the create, {@code user} copied; {@code answer} gets its {@code 201} after the commit, a 500
     * if it failed, or a 503 now when the queue is full. On the event loop that answers it.
     */
    public void create(NewUser user, Deferred answer) {
        Create create = idleCreates.get().poll();
        if (create == null) {
            create = new Create();
        }
        create.start(lastId.incrementAndGet(), user, creationTimes.now(), answer);
        if (!writer.offer(create)) {
            create.release();
            answer.complete(UNAVAILABLE);
        }
    }

    /**
     * One create: its row inserted through the writer's {@link RowQuery}, the request's bytes bound as
     * they are, and its {@code 201} written from the same bytes by the connection's event loop, straight
     * into the outbound buffer: the create is its own {@link LateAnswer}. A JDBC insert took each field
     * as a string and made an array of it, a lambda and more; a {@code 201} made as a {@link Response} on
     * the writer's thread was an object and an array of the answer's size, about 190 bytes a create.
     *
     * <p>Reused, with its copy of the user: once its {@code 201} is written, nothing holds it but the
     * loop's idle creates (the writer is done with a write once it called {@link #committed}, and the
     * connection with an answer once it is written), and the loop's next create takes it. So a create
     * makes no object of its own. One that failed, or whose connection closed before its answer, is
     * never reused: the collector takes it.
     */
    private final class Create implements Write, LateAnswer {
        private final NewUser user = new NewUser();
        private long id;
        private byte[] createdAt;
        private Deferred slot;

        void start(long id, NewUser asked, byte[] createdAt, Deferred slot) {
            this.id = id;
            this.user.copy(asked);
            this.createdAt = createdAt;
            this.slot = slot;
        }

        /** Back to this thread's idle creates, its answer's slot dropped. */
        void release() {
            slot = null;
            ArrayDeque<Create> idle = idleCreates.get();
            if (idle.size() < MAX_IDLE_CREATES) {
                idle.push(this);
            }
        }

        @Override
        public void apply(Transaction transaction) throws SQLException {
            insert(transaction.query(INSERT), id, user.name(), user.nameLength(), user.email(), user.emailLength(), createdAt);
        }

        /** The user is stored: its loop writes the {@code 201} ({@link #answer(Responder)}). */
        @Override
        public void committed() {
            slot.completeOnLoop(this);
        }

        /** The {@code 201}; were it not written, the client still hears at once, with a 500 that says so. Then idle. */
        @Override
        public void answer(Responder responder) {
            try {
                UserRowJson json = createdAnswers.get();
                try {
                    json.created(id, user, createdAt);
                } catch (RuntimeException e) {
                    System.getLogger(SqliteUsers.class.getName()).log(System.Logger.Level.ERROR,
                        "user " + id + " is stored, but its answer could not be written", e);
                    responder.send(ANSWER_FAILED);
                    return;
                }
                responder.stream(201, ContentType.JSON, json.size()).write(json.bytes(), 0, json.size());
            } finally {
                release();
            }
        }

        @Override
        public void failed(Exception cause) {
            System.getLogger(SqliteUsers.class.getName()).log(System.Logger.Level.ERROR, "storing user " + id + " failed", cause);
            slot.complete(WRITE_FAILED);
        }
    }

    /** Inserts a user whose name is {@code name[0, nameLength)} and email {@code email[0, emailLength)}. */
    private static void insert(RowQuery insert, long id, byte[] name, int nameLength, byte[] email, int emailLength, byte[] createdAt)
        throws SQLException {
        insert.bind(1, id);
        insert.bind(2, name, 0, nameLength);
        insert.bind(3, email, 0, emailLength);
        insert.bind(4, createdAt, 0, createdAt.length);
        insert.execute();
    }

    private Reads openReads() {
        try {
            Connection db = SqliteDatabase.openForReading(file);
            Reads opened;
            try {
                opened = new Reads(db);
            } catch (SQLException | RuntimeException e) {
                db.close();
                throw e;
            }
            openReads.add(opened);
            return opened;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot open a read connection on " + file, e);
        }
    }

    /** Commits what is queued, then closes the writer and every loop's read connection. */
    @Override
    public void close() {
        writer.close();
        for (Reads r : openReads) {
            r.close();
        }
    }

    /**
     * One loop's read connection, its two queries and the buffer their rows are written into
     * ({@link UserRowJson}): a row's text goes from SQLite's memory into the buffer, then into the
     * answer, which is streamed once its length is known (a page's, once its last row is read).
     */
    private static final class Reads {
        private final Connection db;
        private final RowQuery byId;
        private final RowQuery page;
        private final UserRowJson json = new UserRowJson();

        Reads(Connection db) throws SQLException {
            this.db = db;
            RowQuery byIdQuery = RowQuery.prepare(db, "SELECT name, email, created_at FROM users WHERE id = ?");
            try {
                this.page = RowQuery.prepare(db, "SELECT id, name, email, created_at FROM users WHERE id > ? ORDER BY id LIMIT ?");
            } catch (SQLException | RuntimeException e) {
                byIdQuery.close();
                throw e;
            }
            this.byId = byIdQuery;
        }

        boolean find(long id, Responder responder) throws SQLException {
            byId.bind(1, id);
            json.clear();
            try (RowQuery.Rows row = byId.run()) {
                if (!row.next()) {
                    return false;
                }
                json.user(id, row, 1);
            }
            responder.stream(200, ContentType.JSON, json.size()).write(json.bytes(), 0, json.size());
            return true;
        }

        void page(long after, int limit, Responder responder) throws SQLException {
            page.bind(1, after);
            page.bind(2, limit);
            json.clear();
            int users = 0;
            long last = after;
            try (RowQuery.Rows rows = page.run()) {
                while (rows.next()) {
                    if (users++ > 0) {
                        json.comma();
                    }
                    last = rows.getLong(1);
                    json.user(last, rows, 2);
                }
            }
            long next = users == limit ? last : -1;
            BodySink body = responder.stream(200, ContentType.JSON, UserJson.pageLength(json.size(), next));
            UserJson.writePageStart(body);
            body.write(json.bytes(), 0, json.size());
            UserJson.writePageEnd(body, next);
        }

        /** Closes the queries, then the connection they run on; a failure is logged and the rest still closed. */
        void close() {
            for (AutoCloseable resource : new AutoCloseable[] {byId, page, db}) {
                try {
                    resource.close();
                } catch (Exception e) {
                    System.getLogger(SqliteUsers.class.getName()).log(System.Logger.Level.WARNING, "closing a read connection failed", e);
                }
            }
        }
    }
}
