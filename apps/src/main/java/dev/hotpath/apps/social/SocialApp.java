package dev.hotpath.apps.social;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.hotpath.apps.App;
import dev.hotpath.http.AsyncHandler;
import dev.hotpath.http.Deferred;
import dev.hotpath.http.HeaderName;
import dev.hotpath.http.JsonBodies;
import dev.hotpath.http.JsonBytes;
import dev.hotpath.http.Method;
import dev.hotpath.http.Request;
import dev.hotpath.http.Response;
import dev.hotpath.http.Routes;
import dev.hotpath.store.BackgroundCheckpoints;
import dev.hotpath.store.Durability;
import dev.hotpath.store.SqliteDatabase;
import dev.hotpath.store.SqliteErrors;
import dev.hotpath.store.Transaction;
import dev.hotpath.store.Write;
import java.io.IOException;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * The social feed API of {@code docs/SOCIAL.md} under the challenge's rules: reads run on the
 * event loop that received them ({@link PostReads}; SQLite answers from its page cache, so a read is
 * CPU work, and a hop to another pool would cost more than it); writes are group-committed, and each is
 * answered after the commit that holds it. On a server with one event loop under
 * {@code synchronous=NORMAL} both share one connection on that loop ({@link LoopConnection}), else
 * each loop reads on its own connection beside a writer thread ({@link SeparateConnections}). Every
 * request verifies its token ({@link TokenVerifier}); nothing is cached across requests.
 */
public final class SocialApp implements App {
    /** Characters a post body may have after trimming. */
    public static final int MAX_BODY_CHARS = 500;
    private static final JsonFactory JSON = new JsonFactory();
    /**
     * How often the checkpoint thread of a {@link LoopConnection} copies the WAL into the database: the
     * WAL holds up to this long's commits, and the disk sees at most five checkpoints' fsyncs a second.
     */
    private static final Duration CHECKPOINT_INTERVAL = Duration.ofMillis(200);

    private final SocialConfig config;
    private final TokenVerifier tokens;
    private final SocialDatabase database;
    private final long startedAt;

    private SocialApp(SocialConfig config, SocialDatabase database) {
        this.config = config;
        this.tokens = new TokenVerifier(config.jwtSecret());
        this.database = database;
        this.startedAt = config.clock().millis();
    }

    /**
     * Opens the API on an existing database. A failure part way (a file that is not a social database,
     * say) closes what was already opened, so nothing is left holding the file or running.
     *
     * @throws IllegalArgumentException when the file does not exist (the challenge provides it seeded)
     * @throws SQLException when it is not a database with the API's tables
     */
    public static SocialApp open(SocialConfig config) throws SQLException {
        if (!Files.isRegularFile(config.database())) {
            throw new IllegalArgumentException("SQLITE_PATH " + config.database() + " does not exist (create one with hotpath social seed)");
        }
        Connection writeConnection = SqliteDatabase.openForWriting(config.database(), config.durability());
        SocialDatabase database;
        try {
            new PostReads(writeConnection).close(); // a file without the API's tables is refused now, not at a request
            database = databaseOn(config, writeConnection);
        } catch (SQLException | RuntimeException e) {
            SqliteDatabase.closeAfter(e, writeConnection);
            throw e;
        }
        return new SocialApp(config, database);
    }

    /** The design {@link SocialApp} describes for this server, around its one write connection. */
    private static SocialDatabase databaseOn(SocialConfig config, Connection writeConnection) throws SQLException {
        if (!config.oneEventLoop() || config.durability() != Durability.NORMAL) {
            return new SeparateConnections(config.database(), writeConnection);
        }
        BackgroundCheckpoints checkpoints =
            BackgroundCheckpoints.takeOver(writeConnection, config.database(), config.durability(), CHECKPOINT_INTERVAL);
        try {
            return new LoopConnection(writeConnection, checkpoints);
        } catch (SQLException | RuntimeException e) {
            checkpoints.close();
            throw e;
        }
    }

    @Override
    public Routes routes() {
        return Routes.builder()
            .get("/health", this::health)
            .get("/feed", this::feed)
            .get("/posts/{id}", this::post)
            .post("/posts", (AsyncHandler) this::createPost)
            .route(Method.POST, "/posts/{id}/like", Routes.DEFAULT_BODY_LIMIT, (AsyncHandler) this::like)
            .notFound(SocialErrors.NOT_FOUND)
            .build();
    }

    // ---- reads, on the event loop

    private Response health(Request request) {
        long uptime = (config.clock().millis() - startedAt) / 1000;
        try {
            database.reads().ping();
            return Response.json(200, "{\"status\":\"ok\",\"db\":\"ok\",\"uptime_s\":" + uptime + "}");
        } catch (SQLException | RuntimeException e) {
            return JsonBytes.response(503, g -> {
                g.writeStartObject();
                g.writeStringField("status", "degraded");
                g.writeStringField("db", "unreachable");
                g.writeStringField("error", String.valueOf(e.getMessage()));
                g.writeEndObject();
            });
        }
    }

    private Response feed(Request request) {
        try {
            return database.reads().feed();
        } catch (SQLException | RuntimeException e) {
            return SocialErrors.INTERNAL;
        }
    }

    private Response post(Request request) {
        long id = postId(request.pathParam(0));
        if (id < 0) {
            return SocialErrors.INVALID_POST_ID;
        }
        try {
            Response post = database.reads().post(id);
            return post == null ? SocialErrors.POST_NOT_FOUND : post;
        } catch (SQLException | RuntimeException e) {
            return SocialErrors.INTERNAL;
        }
    }

    /** A positive decimal integer of at most 18 digits, or -1 ({@code 0}, {@code -1}, {@code abc}, {@code 1.5}). */
    static long postId(String text) {
        if (text.isEmpty() || text.length() > 18) {
            return -1;
        }
        long id = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            id = id * 10 + (c - '0');
        }
        return id == 0 ? -1 : id;
    }

    // ---- writes, through the writer

    private TokenVerifier.Result authenticate(Request request) {
        return tokens.verify(request.header(HeaderName.AUTHORIZATION), config.clock().millis() / 1000);
    }

    private void createPost(Request request, Deferred response) {
        TokenVerifier.Result user = authenticate(request);
        if (!user.verified()) {
            response.complete(SocialErrors.unauthorized(user.refusal()));
            return;
        }
        String body;
        try {
            body = bodyField(request.bodyBytes());
        } catch (JsonProcessingException e) {
            response.complete(SocialErrors.MALFORMED_JSON);
            return;
        } catch (IOException e) {
            response.complete(SocialErrors.INTERNAL);
            return;
        }
        body = body == null ? "" : body.strip();
        if (body.isEmpty()) {
            response.complete(SocialErrors.BODY_REQUIRED);
            return;
        }
        if (body.codePointCount(0, body.length()) > MAX_BODY_CHARS) {
            response.complete(SocialErrors.BODY_TOO_LONG);
            return;
        }
        if (!database.offer(new CreatePost(user, body, response))) {
            response.complete(SocialErrors.OVERLOADED);
        }
    }

    /**
     * The {@code body} string of a request body, or null when it is absent or not a string (an empty
     * request body counts as absent).
     *
     * @throws JsonProcessingException when the request body is not valid JSON
     */
    static String bodyField(byte[] requestBody) throws IOException {
        if (requestBody.length == 0) {
            return null;
        }
        String body = null;
        try (JsonParser p = JsonBodies.parser(JSON, requestBody)) {
            JsonToken first = p.nextToken();
            if (first == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String field = p.currentName();
                    JsonToken value = p.nextToken();
                    if (field.equals("body")) {
                        body = value == JsonToken.VALUE_STRING ? p.getText() : null;
                    }
                    p.skipChildren();
                }
            } else {
                p.skipChildren();
            }
            if (p.nextToken() != null) {
                throw new JsonParseTrailer(p);
            }
        }
        return body;
    }

    /** Content after the JSON value: the body is not one JSON document. */
    private static final class JsonParseTrailer extends JsonProcessingException {
        JsonParseTrailer(JsonParser p) {
            super("trailing content after the JSON value", p.currentLocation());
        }
    }

    private void like(Request request, Deferred response) {
        TokenVerifier.Result user = authenticate(request);
        if (!user.verified()) {
            response.complete(SocialErrors.unauthorized(user.refusal()));
            return;
        }
        long id = postId(request.pathParam(0));
        if (id < 0) {
            response.complete(SocialErrors.INVALID_POST_ID);
            return;
        }
        if (!database.offer(new LikePost(user.userId(), id, response))) {
            response.complete(SocialErrors.OVERLOADED);
        }
    }

    /**
     * The answer to a write SQLite refused. A foreign key refuses a post or like whose user (the
     * token's {@code sub}, verified but never looked up) is not in the database: that is the token's
     * fault, {@code 401 invalid token payload}, not the server's. (Without the key the post would be
     * stored and then missing from every read, which joins its author.) Anything else is a 500.
     */
    private static Response writeRefused(Exception cause) {
        return SqliteErrors.isForeignKeyViolation(cause) ? SocialErrors.unauthorized(TokenVerifier.Refusal.BAD_PAYLOAD)
            : SocialErrors.INTERNAL;
    }

    /** A new post: its id and {@code created_at} (the column default) are read back inside the write. */
    private final class CreatePost implements Write {
        private final TokenVerifier.Result user;
        private final String body;
        private final Deferred response;
        private long id;
        private String createdAt;

        CreatePost(TokenVerifier.Result user, String body, Deferred response) {
            this.user = user;
            this.body = body;
            this.response = response;
        }

        @Override
        public void apply(Transaction transaction) throws SQLException {
            PreparedStatement insertPost = transaction.statement("INSERT INTO posts (user_id, body) VALUES (?, ?)");
            insertPost.setLong(1, user.userId());
            insertPost.setString(2, body);
            insertPost.executeUpdate();
            PreparedStatement insertedPost =
                transaction.statement("SELECT id, created_at FROM posts WHERE rowid = last_insert_rowid()");
            try (ResultSet rs = insertedPost.executeQuery()) {
                rs.next();
                id = rs.getLong(1);
                createdAt = rs.getString(2);
            }
        }

        @Override
        public void committed() {
            response.complete(PostJson.created(id, body, createdAt, user.username()));
        }

        @Override
        public void failed(Exception cause) {
            response.complete(writeRefused(cause));
        }
    }

    /**
     * A like: 201 the first time for this user and post, 200 afterwards, 404 for no such post, 401 for
     * a token whose user does not exist (the like's foreign key, once the post is known to exist).
     */
    private final class LikePost implements Write {
        private final long userId;
        private final long postId;
        private final Deferred response;
        private boolean exists;
        private boolean liked;

        LikePost(long userId, long postId, Deferred response) {
            this.userId = userId;
            this.postId = postId;
            this.response = response;
        }

        @Override
        public void apply(Transaction transaction) throws SQLException {
            PreparedStatement postExists = transaction.statement("SELECT 1 FROM posts WHERE id = ?");
            postExists.setLong(1, postId);
            try (ResultSet rs = postExists.executeQuery()) {
                exists = rs.next();
            }
            liked = false;
            if (exists) {
                PreparedStatement insertLike =
                    transaction.statement("INSERT OR IGNORE INTO likes (user_id, post_id) VALUES (?, ?)");
                insertLike.setLong(1, userId);
                insertLike.setLong(2, postId);
                liked = insertLike.executeUpdate() == 1;
            }
        }

        @Override
        public void committed() {
            if (!exists) {
                response.complete(SocialErrors.POST_NOT_FOUND);
                return;
            }
            response.complete(Response.json(liked ? 201 : 200,
                "{\"liked\":true,\"already_liked\":" + !liked + ",\"post_id\":" + postId + "}"));
        }

        @Override
        public void failed(Exception cause) {
            response.complete(writeRefused(cause));
        }
    }

    /** Nothing to do: the challenge's API has no readiness endpoint, and writes drain at {@link #close()}. */
    @Override
    public void beginDrain() {
    }

    /** Commits what is queued, then closes every connection. */
    @Override
    public void close() {
        database.close();
    }
}
