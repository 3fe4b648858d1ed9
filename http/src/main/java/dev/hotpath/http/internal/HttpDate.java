package dev.hotpath.http.internal;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The {@code Date} header line (RFC 9110 §6.6.1, IMF-fixdate) encoded once per second. Every response
 * copies the current bytes; one timer per server calls {@link #refresh()} each second, so formatting
 * costs one small allocation per second rather than one per response.
 */
public final class HttpDate {
    private static final DateTimeFormatter IMF_FIXDATE =
        DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

    private final Clock clock;
    private volatile byte[] line;

    public HttpDate(Clock clock) {
        this.clock = clock;
        refresh();
    }

    /** Re-encodes the line from the clock. */
    public void refresh() {
        line = ("Date: " + IMF_FIXDATE.format(Instant.ofEpochMilli(clock.millis())) + "\r\n")
            .getBytes(StandardCharsets.US_ASCII);
    }

    /** {@code Date: <IMF-fixdate>\r\n}. Shared: do not modify. */
    public byte[] line() {
        return line;
    }
}
