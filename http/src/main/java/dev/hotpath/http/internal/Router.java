package dev.hotpath.http.internal;

import dev.hotpath.http.FilterChain;
import dev.hotpath.http.Method;
import dev.hotpath.http.Response;
import dev.hotpath.http.RouteHandler;
import dev.hotpath.http.Routes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;

/**
 * Finds the route of a request by comparing path bytes in place: exact paths through an
 * open-addressing table keyed by the path's bytes, then the patterns in order, segment by segment.
 * Built once at start, read-only afterwards, shared by every event loop; a lookup allocates nothing.
 */
public final class Router {
    private static final byte[] ROOT = {'/'};

    private final byte[][] exactKeys;
    private final RouteEntry[] exactEntries;
    private final int mask;
    /** An array, not a list: the list's iterator in {@link #find} was not always scalar-replaced (async-profiler). */
    private final Pattern[] patterns;
    private final Response asteriskOptions;
    private final Response notFound;
    private final List<FilterChain> chains = new ArrayList<>();

    public Router(Routes routes, int defaultMaxBody) {
        this.notFound = routes.notFound();
        Map<String, RouteEntry.Builder> byPattern = new LinkedHashMap<>();
        Set<Method> allMethods = EnumSet.noneOf(Method.class);
        for (Routes.Route route : routes.list()) {
            int limit = route.maxBodyBytes() == Routes.DEFAULT_BODY_LIMIT ? defaultMaxBody : route.maxBodyBytes();
            byPattern.computeIfAbsent(route.pattern(), p -> new RouteEntry.Builder(defaultMaxBody))
                .add(route.method(), limit, route.handler(), chainId(route.filters()));
            allMethods.add(route.method());
        }
        List<Map.Entry<String, RouteEntry>> exact = new ArrayList<>();
        List<Pattern> withParameters = new ArrayList<>();
        byPattern.forEach((pattern, builder) -> {
            RouteEntry entry = builder.build();
            if (pattern.contains("{")) {
                withParameters.add(new Pattern(pattern, entry));
            } else {
                exact.add(Map.entry(pattern, entry));
            }
        });
        patterns = withParameters.toArray(Pattern[]::new);
        int capacity = Integer.highestOneBit(Math.max(4, exact.size() * 4) - 1) << 1;
        exactKeys = new byte[capacity][];
        exactEntries = new RouteEntry[capacity];
        mask = capacity - 1;
        for (Map.Entry<String, RouteEntry> e : exact) {
            byte[] key = e.getKey().getBytes(StandardCharsets.US_ASCII);
            int slot = hash(key) & mask;
            while (exactKeys[slot] != null) {
                slot = (slot + 1) & mask;
            }
            exactKeys[slot] = key;
            exactEntries[slot] = e.getValue();
        }
        if (allMethods.contains(Method.GET)) {
            allMethods.add(Method.HEAD);
        }
        asteriskOptions = Response.builder(204).header("Allow", allowValue(allMethods)).build();
    }

    /** The distinct non-empty filter chains of the routes; a route's chain id indexes this list. */
    public List<FilterChain> chains() {
        return List.copyOf(chains);
    }

    /** The index of {@code chain} in {@link #chains} (added when new; the same instance, the same id), or -1 for none. */
    private int chainId(FilterChain chain) {
        if (chain.isEmpty()) {
            return -1;
        }
        for (int i = 0; i < chains.size(); i++) {
            if (chains.get(i) == chain) {
                return i;
            }
        }
        chains.add(chain);
        return chains.size() - 1;
    }

    /** The answer to a path no route matches. */
    public Response notFound() {
        return notFound;
    }

    /** The answer to {@code OPTIONS *}. */
    public Response asteriskOptions() {
        return asteriskOptions;
    }

    /** The route whose pattern matches the head's path, with its parameters stored in {@code head}, or null. */
    public RouteEntry find(RequestHead head) {
        byte[] buf = head.bytes;
        int start = head.pathStart;
        int end = head.pathEnd;
        RouteEntry exact = start == end ? findExact(ROOT) : findExact(buf, start, end);
        if (exact != null) {
            return exact;
        }
        for (Pattern pattern : patterns) {
            if (pattern.matches(buf, start, end, head)) {
                return pattern.entry;
            }
        }
        return null;
    }

    private RouteEntry findExact(byte[] buf, int start, int end) {
        int h = 0;
        for (int i = start; i < end; i++) {
            h = 31 * h + buf[i];
        }
        for (int slot = h & mask; exactKeys[slot] != null; slot = (slot + 1) & mask) {
            if (Ascii.equals(buf, start, end, exactKeys[slot])) {
                return exactEntries[slot];
            }
        }
        return null;
    }

    private RouteEntry findExact(byte[] key) {
        for (int slot = hash(key) & mask; exactKeys[slot] != null; slot = (slot + 1) & mask) {
            if (java.util.Arrays.equals(key, exactKeys[slot])) {
                return exactEntries[slot];
            }
        }
        return null;
    }

    private static int hash(byte[] key) {
        int h = 0;
        for (byte b : key) {
            h = 31 * h + b;
        }
        return h;
    }

    static String allowValue(Set<Method> methods) {
        StringJoiner allow = new StringJoiner(", ");
        for (Method m : methods) {
            allow.add(m.name());
        }
        return allow.toString();
    }

    /** A pattern split into segments; a null literal is a parameter. */
    private static final class Pattern {
        private final byte[][] literals;
        private final RouteEntry entry;

        Pattern(String pattern, RouteEntry entry) {
            String[] segments = pattern.substring(1).split("/", -1);
            literals = new byte[segments.length][];
            int params = 0;
            for (int i = 0; i < segments.length; i++) {
                String s = segments[i];
                if (s.startsWith("{") && s.endsWith("}") && s.length() > 2) {
                    params++;
                } else if (s.contains("{") || s.contains("}")) {
                    throw new IllegalArgumentException("a parameter is a whole segment: " + pattern);
                } else {
                    literals[i] = s.getBytes(StandardCharsets.US_ASCII);
                }
            }
            if (params > RequestHead.MAX_PATH_PARAMS) {
                throw new IllegalArgumentException("more than " + RequestHead.MAX_PATH_PARAMS + " parameters: " + pattern);
            }
            this.entry = entry;
        }

        boolean matches(byte[] buf, int start, int end, RequestHead head) {
            if (start == end) {
                return false;
            }
            int params = 0;
            int segmentStart = start + 1;
            for (int i = 0; i < literals.length; i++) {
                if (segmentStart > end) {
                    return false;
                }
                int slash = indexOfSlash(buf, segmentStart, end);
                int segmentEnd = slash < 0 ? end : slash;
                if (literals[i] == null) {
                    if (segmentEnd == segmentStart) {
                        return false;
                    }
                    head.paramStart[params] = segmentStart;
                    head.paramEnd[params] = segmentEnd;
                    params++;
                } else if (!Ascii.equals(buf, segmentStart, segmentEnd, literals[i])) {
                    return false;
                }
                if (i == literals.length - 1 && segmentEnd != end) {
                    return false;
                }
                segmentStart = segmentEnd + 1;
            }
            head.paramCount = params;
            return true;
        }

        private static int indexOfSlash(byte[] buf, int from, int to) {
            for (int i = from; i < to; i++) {
                if (buf[i] == '/') {
                    return i;
                }
            }
            return -1;
        }
    }

    /** The handlers of one path, indexed by method, with each method's body limit and the 405 answer. */
    public static final class RouteEntry {
        private final RouteHandler[] handlers;
        private final int[] maxBody;
        private final int[] chainIds;
        private final Response methodNotAllowed;

        private RouteEntry(RouteHandler[] handlers, int[] maxBody, int[] chainIds, Response methodNotAllowed) {
            this.handlers = handlers;
            this.maxBody = maxBody;
            this.chainIds = chainIds;
            this.methodNotAllowed = methodNotAllowed;
        }

        /** The handler for {@code method}; {@code HEAD} falls back to {@code GET}; null when not routed. */
        public RouteHandler handler(Method method) {
            return handlers[method.ordinal()];
        }

        public int maxBody(Method method) {
            return maxBody[method.ordinal()];
        }

        /** The id of the filter chain {@code method}'s requests run through ({@link Router#chains}), or -1. */
        public int chainId(Method method) {
            return chainIds[method.ordinal()];
        }

        public Response methodNotAllowed() {
            return methodNotAllowed;
        }

        static final class Builder {
            private final RouteHandler[] handlers = new RouteHandler[Method.values().length];
            private final int[] maxBody = new int[Method.values().length];
            private final int[] chainIds = new int[Method.values().length];

            Builder(int defaultMaxBody) {
                java.util.Arrays.fill(maxBody, defaultMaxBody);
                java.util.Arrays.fill(chainIds, -1);
            }

            void add(Method method, int limit, RouteHandler handler, int chainId) {
                handlers[method.ordinal()] = handler;
                maxBody[method.ordinal()] = limit;
                chainIds[method.ordinal()] = chainId;
            }

            RouteEntry build() {
                int head = Method.HEAD.ordinal();
                int get = Method.GET.ordinal();
                if (handlers[head] == null && handlers[get] != null) {
                    handlers[head] = handlers[get];
                    maxBody[head] = maxBody[get];
                    chainIds[head] = chainIds[get];
                }
                Set<Method> allowed = EnumSet.noneOf(Method.class);
                for (Method m : Method.values()) {
                    if (handlers[m.ordinal()] != null) {
                        allowed.add(m);
                    }
                }
                String allow = allowValue(allowed);
                Response notAllowed = Response.builder(405).header("Allow", allow)
                    .body("application/json", ("{\"error\":\"method_not_allowed\",\"message\":\"allowed: " + allow
                        + "\"}").getBytes(StandardCharsets.US_ASCII));
                return new RouteEntry(handlers.clone(), maxBody.clone(), chainIds.clone(), notAllowed);
            }
        }
    }
}
