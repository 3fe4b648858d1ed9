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
        boolean limitGiven = false;
        if (query == null || query.isEmpty()) {
            return new PageQuery(null, limit);
        }
        for (String pair : query.split("&", -1)) {
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            switch (name) {
                case "after" -> {
                    if (after != null) {
                        throw new Invalid("after is given more than once");
                    }
                    after = value;
                }
                case "limit" -> {
                    if (limitGiven) {
                        throw new Invalid("limit is given more than once");
                    }
                    limit = pageSize(value, maxLimit);
                    limitGiven = true;
                }
                default -> throw new Invalid("unknown query parameter");
            }
        }
        return new PageQuery(after, limit);
    }

    /** Decimal digits only: {@code Integer.parseInt} would also take a sign ({@code +5}). */
    private static int pageSize(String value, int maxLimit) throws Invalid {
        boolean digits = !value.isEmpty() && value.length() <= 9 && value.chars().allMatch(c -> c >= '0' && c <= '9');
        int limit = digits ? Integer.parseInt(value) : 0;
        if (limit < 1 || limit > maxLimit) {
            throw new Invalid("limit must be a number from 1 to " + maxLimit);
        }
        return limit;
    }
}
