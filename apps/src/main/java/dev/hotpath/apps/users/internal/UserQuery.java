package dev.hotpath.apps.users.internal;

import dev.hotpath.http.Request;

/** Reads the users API's path id and page query in place, from the request's bytes. */
public final class UserQuery {
    public static final int DEFAULT_LIMIT = 20;
    public static final int MAX_LIMIT = 100;

    private UserQuery() {
    }

    /** A page request: ids above {@code after}, at most {@code limit}. */
    public record Page(long after, int limit) {
    }

    /** The user id of {@code /api/users/{id}}: a decimal from 1 to 2^63-1, read in place; -1 for anything else. */
    public static long id(Request request) {
        int length = request.pathParamLength(0);
        if (length > 19) {
            return -1;
        }
        long id = 0;
        for (int i = 0; i < length; i++) {
            byte b = request.pathParamByte(0, i);
            if (b < '0' || b > '9') {
                return -1;
            }
            id = id * 10 + (b - '0');
            if (id < 0) {
                return -1;
            }
        }
        return id >= 1 ? id : -1;
    }

    /**
     * The page a request's query asks for: {@code limit} 1 to {@value #MAX_LIMIT} (default {@value #DEFAULT_LIMIT}),
     * {@code after} 0 to 2^63-1 (default 0); other parameters are ignored. Read in place from the request's
     * bytes: no string.
     *
     * @throws IllegalArgumentException naming the parameter that is not a number in range, or given twice
     */
    public static Page page(Request request) {
        long limit = -1;
        long after = -1;
        int end = request.queryLength();
        for (int start = 0; start < end; ) {
            int amp = indexOf(request, '&', start, end);
            int pairEnd = amp < 0 ? end : amp;
            int eq = indexOf(request, '=', start, pairEnd);
            int nameEnd = eq < 0 ? pairEnd : eq;
            int valueStart = Math.min(nameEnd + 1, pairEnd);
            if (is(request, start, nameEnd, "limit")) {
                if (limit >= 0) {
                    throw new IllegalArgumentException("limit is given twice");
                }
                limit = number(request, valueStart, pairEnd, MAX_LIMIT, "limit must be a number from 1 to " + MAX_LIMIT);
                if (limit < 1) {
                    throw new IllegalArgumentException("limit must be a number from 1 to " + MAX_LIMIT);
                }
            } else if (is(request, start, nameEnd, "after")) {
                if (after >= 0) {
                    throw new IllegalArgumentException("after is given twice");
                }
                after = number(request, valueStart, pairEnd, Long.MAX_VALUE, "after must be a user id or 0");
            }
            if (amp < 0) {
                break;
            }
            start = amp + 1;
        }
        return new Page(Math.max(after, 0), limit < 0 ? DEFAULT_LIMIT : (int) limit);
    }

    /** Where {@code c} is first in the query's bytes {@code [from, to)}, or -1. */
    private static int indexOf(Request request, char c, int from, int to) {
        for (int i = from; i < to; i++) {
            if (request.queryByte(i) == c) {
                return i;
            }
        }
        return -1;
    }

    /** Whether the query's bytes {@code [from, to)} are {@code name}. */
    private static boolean is(Request request, int from, int to, String name) {
        if (to - from != name.length()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (request.queryByte(from + i) != name.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** The query's bytes {@code [from, to)} as a decimal from 0 to {@code max}; {@code problem} when they are not one. */
    private static long number(Request request, int from, int to, long max, String problem) {
        if (to == from || to - from > 19) {
            throw new IllegalArgumentException(problem);
        }
        long n = 0;
        for (int i = from; i < to; i++) {
            byte c = request.queryByte(i);
            if (c < '0' || c > '9') {
                throw new IllegalArgumentException(problem);
            }
            n = n * 10 + (c - '0');
            if (n < 0 || n > max) {
                throw new IllegalArgumentException(problem);
            }
        }
        return n;
    }
}
