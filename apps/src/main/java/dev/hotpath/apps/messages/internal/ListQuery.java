package dev.hotpath.apps.messages.internal;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The query of {@code GET /messages}: {@code to=<user>} or {@code from=<user>} (exactly one),
 * {@code limit} 1 to {@value #MAX_LIMIT} (default {@value #DEFAULT_LIMIT}) and {@code before=<id>}
 * (only messages with a smaller id, that is older ones; the id need not exist).
 *
 * <p>Strict, so that a typo is an error and not a silently different page: an unknown or repeated
 * parameter, an empty pair ({@code a&&b}), a limit that is not 1 to 3 digits in range, a
 * {@code before} that is not a UUID, and a user name {@link TextRules} refuses are each
 * {@code 400 invalid_query} naming the parameter. Values are percent-decoded as UTF-8 with {@code +}
 * as a space (what HTML forms and {@code URLSearchParams} send); a malformed escape or bytes that are
 * not UTF-8 are refused, not replaced. Names are matched as sent.
 *
 * @param toUser true for {@code to=}, false for {@code from=}
 * @param before the exclusive upper bound, or null for the newest messages
 */
public record ListQuery(boolean toUser, String user, int limit, MessageId before) {
    public static final int MAX_LIMIT = 100;
    public static final int DEFAULT_LIMIT = 50;

    /** The query of {@code query} ({@code Request.query()}: null when the target has none). */
    public static ListQuery parse(String query) throws Refusal.Refused {
        String to = null;
        String from = null;
        String limit = null;
        String before = null;
        if (query != null && !query.isEmpty()) {
            for (String pair : query.split("&", -1)) {
                int eq = pair.indexOf('=');
                String name = eq < 0 ? pair : pair.substring(0, eq);
                String value = decode(name, eq < 0 ? "" : pair.substring(eq + 1));
                switch (name) {
                    case "to" -> to = once(name, to, value);
                    case "from" -> from = once(name, from, value);
                    case "limit" -> limit = once(name, limit, value);
                    case "before" -> before = once(name, before, value);
                    case "" -> throw invalid("an empty query parameter (check for && or a trailing &)");
                    default -> throw invalid("unknown query parameter " + name + ": use to or from, limit, before");
                }
            }
        }
        if ((to == null) == (from == null)) {
            throw invalid("give exactly one of to and from");
        }
        String user = to != null ? to : from;
        String problem = TextRules.nameProblem(to != null ? "to" : "from", user);
        if (problem != null) {
            throw invalid(problem);
        }
        MessageId beforeId = null;
        if (before != null) {
            beforeId = MessageId.parse(before);
            if (beforeId == null) {
                throw invalid("before must be a message id (a UUID such as 0194f5c2-7a3b-7cde-8f01-23456789abcd)");
            }
        }
        return new ListQuery(to != null, user, limit == null ? DEFAULT_LIMIT : limitOf(limit), beforeId);
    }

    private static String once(String name, String previous, String value) throws Refusal.Refused {
        if (previous != null) {
            throw invalid(name + " is given more than once");
        }
        return value;
    }

    private static int limitOf(String text) throws Refusal.Refused {
        int limit = 0;
        boolean digits = !text.isEmpty() && text.length() <= 3;
        for (int i = 0; digits && i < text.length(); i++) {
            char c = text.charAt(i);
            digits = c >= '0' && c <= '9';
            limit = limit * 10 + (c - '0');
        }
        if (!digits || limit < 1 || limit > MAX_LIMIT) {
            throw invalid("limit must be a number from 1 to " + MAX_LIMIT);
        }
        return limit;
    }

    /** {@code value} percent-decoded as UTF-8, {@code +} a space. */
    static String decode(String name, String value) throws Refusal.Refused {
        if (value.indexOf('%') < 0 && value.indexOf('+') < 0) {
            return value;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '+') {
                bytes.write(' ');
            } else if (c > '~') {
                throw invalid(name + " has a character that must be percent-encoded");
            } else if (c != '%') {
                bytes.write(c);
            } else {
                int hi = i + 2 < value.length() ? Character.digit(value.charAt(i + 1), 16) : -1;
                int lo = hi >= 0 ? Character.digit(value.charAt(i + 2), 16) : -1;
                if (lo < 0 || value.charAt(i + 1) > 'f' || value.charAt(i + 2) > 'f') {
                    throw invalid(name + " has a malformed percent escape");
                }
                bytes.write(hi << 4 | lo);
                i += 2;
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            throw invalid(name + " is not UTF-8 once percent-decoded");
        }
    }

    private static Refusal.Refused invalid(String text) {
        return new Refusal.Refused(Refusal.INVALID_QUERY, text);
    }
}
