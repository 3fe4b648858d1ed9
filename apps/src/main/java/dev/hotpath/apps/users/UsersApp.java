package dev.hotpath.apps.users;

import dev.hotpath.apps.App;
import dev.hotpath.apps.users.internal.MemoryUsers;
import dev.hotpath.apps.users.internal.NewUser;
import dev.hotpath.apps.users.internal.SqliteUsers;
import dev.hotpath.apps.users.internal.UserJson;
import dev.hotpath.apps.users.internal.UserQuery;
import dev.hotpath.apps.users.internal.UserStore;
import dev.hotpath.http.AsyncHandler;
import dev.hotpath.http.Deferred;
import dev.hotpath.http.DirectHandler;
import dev.hotpath.http.FilterChain;
import dev.hotpath.http.HeaderName;
import dev.hotpath.http.JsonBytes;
import dev.hotpath.http.Method;
import dev.hotpath.http.MetricsEndpoint;
import dev.hotpath.http.Request;
import dev.hotpath.http.Responder;
import dev.hotpath.http.Response;
import dev.hotpath.http.Routes;
import dev.hotpath.http.filters.AccessLog;
import dev.hotpath.http.filters.BearerAuth;
import dev.hotpath.http.filters.RequestIds;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;

/**
 * The users app: the engine-comparison API (docs/ENGINES.md). {@code GET /ping} is scenario S1, one
 * constant answer; {@code /api/users} (S2 to S4) runs behind the engine's middleware chain (access log
 * when configured, request id, bearer auth) on the store the config names: in memory (S3) or SQLite
 * (S4). {@code POST /echo} returns the body with the content type it came with.
 */
public final class UsersApp implements App {
    /** The echo body limit. */
    public static final int MAX_ECHO_BYTES = 64 * 1024;
    /** The create body limit: a name and an email fit many times over. */
    public static final int MAX_CREATE_BYTES = 4 * 1024;

    private static final Response PONG = Response.of(200, "text/plain", "pong".getBytes(StandardCharsets.US_ASCII));
    private static final Response NOT_FOUND = Response.json(404, "{\"error\":\"not_found\",\"message\":\"no user with this id\"}");
    private static final Response UNSUPPORTED = Response.json(415,
        "{\"error\":\"unsupported_media_type\",\"message\":\"send application/json\"}");
    private static final Response INTERNAL = Response.json(500, "{\"error\":\"internal_error\",\"message\":\"the store failed\"}");

    private final PrometheusRegistry metrics;
    private final UsersConfig config;
    private final UserStore store;
    private final AccessLog accessLog;

    private UsersApp(UsersConfig config, PrometheusRegistry metrics, UserStore store, AccessLog accessLog) {
        this.config = config;
        this.metrics = metrics;
        this.store = store;
        this.accessLog = accessLog;
    }

    /**
     * Opens the store (a SQLite database is created and preloaded when new) and the access log.
     *
     * @throws SQLException when the database cannot be opened
     */
    public static UsersApp open(UsersConfig config, PrometheusRegistry metrics) throws SQLException {
        BearerAuth.factory(config.token()); // refuse a malformed token before anything is opened
        UserStore store = config.store() == UsersConfig.Store.SQLITE
            ? new SqliteUsers(config.dataDir(), config.clock()) : new MemoryUsers(config.clock());
        AccessLog log = config.accessLog() == null ? null
            : config.accessLog().equals("-") ? AccessLog.toStdout(config.clock())
            : AccessLog.toFile(Path.of(config.accessLog()), config.clock());
        return new UsersApp(config, metrics, store, log);
    }

    @Override
    public Routes routes() {
        FilterChain chain = accessLog == null
            ? FilterChain.of(RequestIds.factory(), BearerAuth.factory(config.token()))
            : FilterChain.of(accessLog.filter(), RequestIds.factory(), BearerAuth.factory(config.token()));
        Routes.Builder routes = Routes.builder()
            .get("/ping", request -> PONG)
            .post("/echo", MAX_ECHO_BYTES, UsersApp::echo)
            .get("/metrics", new MetricsEndpoint(metrics))
            .filters(chain)
            .route(Method.GET, "/api/users/{id}", Routes.DEFAULT_BODY_LIMIT, (DirectHandler) this::find)
            .route(Method.GET, "/api/users", Routes.DEFAULT_BODY_LIMIT, (DirectHandler) this::page);
        if (store instanceof SqliteUsers sqlite) {
            routes.post("/api/users", MAX_CREATE_BYTES, (AsyncHandler) (request, answer) -> create(sqlite, request, answer));
        } else {
            routes.route(Method.POST, "/api/users", MAX_CREATE_BYTES,
                (DirectHandler) (request, responder) -> create((MemoryUsers) store, request, responder));
        }
        return routes.build();
    }

    private void find(Request request, Responder responder) {
        long id = UserQuery.id(request);
        try {
            if (id < 0 || !store.find(id, responder)) {
                responder.send(NOT_FOUND);
            }
        } catch (SQLException | RuntimeException e) { // a store fails before it answers (UserStore#find)
            responder.send(failed("reading user " + id, e));
        }
    }

    private void page(Request request, Responder responder) {
        UserQuery.Page page;
        try {
            page = UserQuery.page(request);
        } catch (IllegalArgumentException e) {
            responder.send(invalid(400, "invalid_query", e.getMessage()));
            return;
        }
        try {
            store.page(page.after(), page.limit(), responder);
        } catch (SQLException | RuntimeException e) { // a store fails before it answers (UserStore#page)
            responder.send(failed("reading a page", e));
        }
    }

    /** Stores the user, then answers {@code 201} with the JSON kept for it, streamed: no second copy. */
    private static void create(MemoryUsers memory, Request request, Responder responder) {
        Object checked = newUser(request);
        if (checked instanceof NewUser user) {
            memory.create(user, responder);
        } else {
            responder.send((Response) checked);
        }
    }

    private static void create(SqliteUsers sqlite, Request request, Deferred answer) {
        Object checked = newUser(request);
        if (checked instanceof NewUser user) {
            sqlite.create(user, answer);
        } else {
            answer.complete((Response) checked);
        }
    }

    /** The create request's user, or the error answer (a {@link Response}) that refuses it. */
    private static Object newUser(Request request) {
        if (!request.declaresJsonOrNothing()) {
            return UNSUPPORTED;
        }
        try {
            return UserJson.readCreate(request);
        } catch (UserJson.Invalid e) {
            return e.malformed ? invalid(400, "invalid_json", e.getMessage()) : invalid(422, "invalid_user", e.getMessage());
        }
    }

    private static Response invalid(int status, String code, String message) {
        return JsonBytes.response(status, json -> {
            json.writeStartObject();
            json.writeStringField("error", code);
            json.writeStringField("message", message);
            json.writeEndObject();
        });
    }

    private static Response failed(String what, Exception e) {
        System.getLogger(UsersApp.class.getName()).log(System.Logger.Level.ERROR, what + " failed", e);
        return INTERNAL;
    }

    @Override
    public void beginDrain() {
    }

    /** Commits queued creates, closes the store, then writes the rest of the access log. */
    @Override
    public void close() {
        store.close();
        if (accessLog != null) {
            accessLog.close();
        }
    }

    private static Response echo(Request request) {
        return Response.builder(200).body(request.header(HeaderName.CONTENT_TYPE), request.bodyBytes());
    }
}
