package dev.hotpath.bench.peers;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;

/**
 * The routes of the users API (docs/ENGINES.md) apart from any framework: each peer reads the path
 * parameter, query parameters or body with its own API and hands them here as text or bytes, then
 * writes the {@link Reply}. Keeping the rules in one place is what makes the peers answer byte for
 * byte alike; what differs between them is only the framework around these calls.
 *
 * <table>
 * <caption>Limits</caption>
 * <tr><th>what</th><th>range</th><th>default</th></tr>
 * <tr><td>{@code {id}}</td><td>1 to 2<sup>63</sup>−1, decimal digits</td><td>—</td></tr>
 * <tr><td>{@code limit}</td><td>{@value #MIN_LIMIT} to {@value #MAX_LIMIT}</td><td>{@value #DEFAULT_LIMIT}</td></tr>
 * <tr><td>{@code after}</td><td>0 to 2<sup>63</sup>−1</td><td>0</td></tr>
 * <tr><td>create body</td><td>up to {@value #MAX_BODY_BYTES} bytes (the framework answers 413 past it)</td><td>—</td></tr>
 * </table>
 *
 * <p>Calls reach the {@link UserStore}, so they block when {@link UserStore#blocking()} says so.
 */
final class UsersApi {
    static final int MIN_LIMIT = 1;
    static final int MAX_LIMIT = 100;
    static final int DEFAULT_LIMIT = 20;
    static final int MAX_BODY_BYTES = 4 * 1024;

    private static final Reply INVALID_LIMIT = new Reply(400,
        UserJson.error("invalid_query", "limit must be a number from " + MIN_LIMIT + " to " + MAX_LIMIT));
    private static final Reply INVALID_AFTER = new Reply(400,
        UserJson.error("invalid_query", "after must be a number from 0 to " + Long.MAX_VALUE));

    private final UserStore store;
    private final Clock clock;

    UsersApi(UserStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    boolean blocking() {
        return store.blocking();
    }

    /** {@code GET /api/users/{id}}. */
    Reply find(String id) {
        long parsed = number(id);
        User user = parsed > 0 ? store.find(parsed) : null;
        return user == null ? Reply.NOT_FOUND : new Reply(200, UserJson.user(user));
    }

    /** {@code GET /api/users?limit=N&after=ID}; a parameter that was not sent is {@code null}. */
    Reply page(String limit, String after) {
        long parsedLimit = limit == null ? DEFAULT_LIMIT : number(limit);
        if (parsedLimit < MIN_LIMIT || parsedLimit > MAX_LIMIT) {
            return INVALID_LIMIT;
        }
        long parsedAfter = after == null ? 0 : number(after);
        if (parsedAfter < 0) {
            return INVALID_AFTER;
        }
        List<User> users = store.page(parsedAfter, (int) parsedLimit);
        Long next = users.size() < parsedLimit ? null : users.getLast().id();
        return new Reply(200, UserJson.page(users, next));
    }

    /** {@code POST /api/users}; {@code contentType} is {@code null} when the request had none. */
    Reply create(String contentType, byte[] body) {
        if (contentType != null && !isJson(contentType)) {
            return Reply.UNSUPPORTED_MEDIA_TYPE;
        }
        NewUser user;
        try {
            user = NewUser.parse(body);
        } catch (NewUser.Refused refused) {
            return refused.reply;
        }
        String now = Instant.now(clock).truncatedTo(ChronoUnit.SECONDS).toString();
        return new Reply(201, UserJson.user(store.create(user.name(), user.email(), now)));
    }

    /** {@code application/json}, in any case, with or without parameters ({@code ; charset=utf-8}). */
    private static boolean isJson(String contentType) {
        int semicolon = contentType.indexOf(';');
        String type = semicolon < 0 ? contentType : contentType.substring(0, semicolon);
        return type.strip().toLowerCase(Locale.ROOT).equals(UserJson.CONTENT_TYPE);
    }

    /** The decimal number {@code text} is, 0 to 2<sup>63</sup>−1, or −1 when it is not one. */
    private static long number(String text) {
        if (text.isEmpty()) {
            return -1;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException overflow) {
            return -1;
        }
    }
}
