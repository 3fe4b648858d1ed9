package dev.hotpath.http;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The routes of a server: a method, a path pattern, a body limit and a handler each. A pattern is an
 * exact path ({@code /api/links}) or has whole segments that capture a parameter ({@code /{code}},
 * {@code /posts/{id}/like}). Exact paths are looked up first, then patterns in the order added.
 *
 * <p>What the engine derives from them: {@code HEAD} runs the {@code GET} handler and sends the headers
 * only; a known path with an unregistered method is {@code 405} with {@code Allow}; an unknown path is
 * {@code 404}; {@code OPTIONS *} is {@code 204} with every method the server routes.
 */
public final class Routes {
    /** Use the server's default body limit ({@link ServerLimits#maxBodyBytes()}). */
    public static final int DEFAULT_BODY_LIMIT = -1;
    /** The answer to a path no route matches, unless the app gives its own. */
    public static final Response NOT_FOUND =
        Response.json(404, "{\"error\":\"not_found\",\"message\":\"no route for this path\"}");

    private final List<Route> routes;
    private final Response notFound;

    private Routes(List<Route> routes, Response notFound) {
        this.routes = routes;
        this.notFound = notFound;
    }

    /** What a path no route matches is answered. */
    public Response notFound() {
        return notFound;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The routes in the order added. */
    public List<Route> list() {
        return routes;
    }

    /**
     * One route; {@code maxBodyBytes} is {@link #DEFAULT_BODY_LIMIT} or a limit of its own, and
     * {@code filters} the chain its requests run through ({@link FilterChain#NONE} for none).
     */
    public record Route(Method method, String pattern, int maxBodyBytes, RouteHandler handler, FilterChain filters) {
        public Route {
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(handler, "handler");
            Objects.requireNonNull(filters, "filters");
            if (!pattern.startsWith("/")) {
                throw new IllegalArgumentException("a pattern starts with '/': " + pattern);
            }
            if (maxBodyBytes < DEFAULT_BODY_LIMIT) {
                throw new IllegalArgumentException("invalid body limit " + maxBodyBytes);
            }
        }
    }

    /**
     * Collects routes; refuses the same method and pattern twice. Routes run through the chain last
     * given to {@link #filters} (none until then), as middleware registered before routes does in
     * most frameworks.
     */
    public static final class Builder {
        private final List<Route> routes = new ArrayList<>();
        private Response notFound = NOT_FOUND;
        private FilterChain filters = FilterChain.NONE;

        /**
         * The chain the routes added from now on run through, until the next call; {@link FilterChain#NONE}
         * ends it. A path no route matches, and a method a path does not route, are answered without
         * any chain.
         */
        public Builder filters(FilterChain chain) {
            this.filters = Objects.requireNonNull(chain, "chain");
            return this;
        }

        /** Answers a path no route matches with {@code response} (a 404, as an app's contract words it). */
        public Builder notFound(Response response) {
            if (response.status() != 404) {
                throw new IllegalArgumentException("the answer to an unknown path is a 404, not " + response.status());
            }
            this.notFound = response;
            return this;
        }

        public Builder get(String pattern, Handler handler) {
            return route(Method.GET, pattern, DEFAULT_BODY_LIMIT, handler);
        }

        public Builder get(String pattern, AsyncHandler handler) {
            return route(Method.GET, pattern, DEFAULT_BODY_LIMIT, handler);
        }

        public Builder post(String pattern, Handler handler) {
            return route(Method.POST, pattern, DEFAULT_BODY_LIMIT, handler);
        }

        public Builder post(String pattern, AsyncHandler handler) {
            return route(Method.POST, pattern, DEFAULT_BODY_LIMIT, handler);
        }

        public Builder post(String pattern, int maxBodyBytes, Handler handler) {
            return route(Method.POST, pattern, maxBodyBytes, handler);
        }

        public Builder post(String pattern, int maxBodyBytes, AsyncHandler handler) {
            return route(Method.POST, pattern, maxBodyBytes, handler);
        }

        public Builder delete(String pattern, Handler handler) {
            return route(Method.DELETE, pattern, DEFAULT_BODY_LIMIT, handler);
        }

        public Builder delete(String pattern, AsyncHandler handler) {
            return route(Method.DELETE, pattern, DEFAULT_BODY_LIMIT, handler);
        }

        public Builder route(Method method, String pattern, int maxBodyBytes, RouteHandler handler) {
            Route route = new Route(method, pattern, maxBodyBytes, handler, filters);
            for (Route existing : routes) {
                if (existing.method() == method && existing.pattern().equals(pattern)) {
                    throw new IllegalArgumentException("route added twice: " + method + " " + pattern);
                }
            }
            routes.add(route);
            return this;
        }

        public Routes build() {
            return new Routes(Collections.unmodifiableList(new ArrayList<>(routes)), notFound);
        }
    }
}
