package dev.hotpath.bench.peers;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The request-id rule of the users API: an {@value #HEADER} the client sent is kept when it is 1 to
 * {@value #MAX_LENGTH} characters of {@code A-Z a-z 0-9 - _ .}; otherwise the server makes one, a
 * random prefix chosen at start and a counter ({@code 3f9a1c0b7e2d4a65-42}), unique within the process
 * and cheap to make (no {@code SecureRandom} per request).
 */
final class RequestIds {
    static final String HEADER = "X-Request-Id";
    static final int MAX_LENGTH = 64;

    private static final String PREFIX = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong()) + "-";
    private static final AtomicLong COUNTER = new AtomicLong();

    private RequestIds() {
    }

    /** The id to answer with: {@code sent} when it is a valid one, a new one otherwise. */
    static String pick(String sent) {
        return sent != null && valid(sent) ? sent : PREFIX + COUNTER.incrementAndGet();
    }

    private static boolean valid(String id) {
        if (id.isEmpty() || id.length() > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            boolean allowed = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
                || c == '-' || c == '_' || c == '.';
            if (!allowed) {
                return false;
            }
        }
        return true;
    }
}
