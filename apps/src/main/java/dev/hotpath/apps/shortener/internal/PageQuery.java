package dev.hotpath.apps.shortener.internal;

import dev.hotpath.http.Response;

/**
 * The query of {@code GET /api/links}: {@code after=<code>} (the link to go on from) and
 * {@code limit=<1..max>}; anything else is refused.
 *
 * @param after the code, or null to start at the first link
 */
record PageQuery(String after, int limit) {
    static final Response NOT_A_LINK = Errors.error(400, "invalid_query", "after is not the code of a link");

    /** A query this endpoint does not take; the message says why. */
    static final class Invalid extends Exception {
        Invalid(String message) {
            super(message, null, false, false);
        }
    }

    static PageQuery parse(String query, int defaultLimit, int maxLimit) throws Invalid {
        String after = null;
        int limit = defaultLimit;
        if (query == null || query.isEmpty()) {
            return new PageQuery(null, limit);
        }
        for (String pair : query.split("&", -1)) {
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            switch (name) {
                case "after" -> after = value;
                case "limit" -> limit = pageSize(value, maxLimit);
                default -> throw new Invalid("unknown query parameter");
            }
        }
        return new PageQuery(after, limit);
    }

    private static int pageSize(String value, int maxLimit) throws Invalid {
        try {
            int limit = Integer.parseInt(value);
            if (limit >= 1 && limit <= maxLimit) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new Invalid("limit must be a number from 1 to " + maxLimit);
    }
}
