package dev.hotpath.http.filters;

import dev.hotpath.http.Exchange;
import dev.hotpath.http.Filter;
import dev.hotpath.http.HeaderName;
import dev.hotpath.http.Response;
import java.security.SecureRandom;
import java.util.function.Supplier;

/**
 * Gives every request an id, returned in {@code X-Request-Id}: the client's own when it sent one of 1
 * to 64 characters of {@code A-Z a-z 0-9 - _ .} (so a trace id from a proxy carries through), a new one
 * otherwise. A made id is 12 hex digits drawn at random per event loop, a dash and 12 hex digits of a
 * counter: unique across loops and restarts without a shared counter or a random draw per request.
 *
 * <p>Costs a header lookup and a copy of at most 64 bytes per request; allocates nothing.
 */
public final class RequestIds implements Filter {
    public static final HeaderName X_REQUEST_ID = HeaderName.of("X-Request-Id");
    /** The longest client id echoed. */
    public static final int MAX_LENGTH = 64;
    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final int PREFIX_DIGITS = 12;
    private static final int COUNTER_DIGITS = 12;

    private final byte[] sent = new byte[MAX_LENGTH];
    private final byte[] made = new byte[PREFIX_DIGITS + 1 + COUNTER_DIGITS];
    private long counter;

    private RequestIds(long prefix) {
        writeHex(prefix, made, 0, PREFIX_DIGITS);
        made[PREFIX_DIGITS] = '-';
    }

    /** One filter per event loop, each with its own random prefix. */
    public static Supplier<Filter> factory() {
        SecureRandom random = new SecureRandom();
        return () -> new RequestIds(random.nextLong());
    }

    @Override
    public Response before(Exchange exchange) {
        int length = exchange.request().header(X_REQUEST_ID, sent);
        if (length >= 1 && length <= MAX_LENGTH && isIdText(sent, length)) {
            exchange.addResponseHeader(X_REQUEST_ID, sent, 0, length);
        } else {
            writeHex(counter++, made, PREFIX_DIGITS + 1, COUNTER_DIGITS);
            exchange.addResponseHeader(X_REQUEST_ID, made, 0, made.length);
        }
        return null;
    }

    private static boolean isIdText(byte[] id, int length) {
        for (int i = 0; i < length; i++) {
            byte b = id[i];
            boolean ok = (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
                || b == '-' || b == '_' || b == '.';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** Writes the low {@code digits} hex digits of {@code value} at {@code at}, most significant first. */
    private static void writeHex(long value, byte[] into, int at, int digits) {
        for (int i = digits - 1; i >= 0; i--) {
            into[at + i] = HEX[(int) (value & 0xF)];
            value >>>= 4;
        }
    }
}
