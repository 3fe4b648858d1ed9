package dev.hotpath.http.internal;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Status lines followed by the {@code Date} header (RFC 9110 §6.6.1, IMF-fixdate), for every status,
 * encoded once per second. Every response copies one of them; one timer per server calls
 * {@link #refresh()} each second, so formatting costs about 30 KB of short-lived arrays per second and
 * nothing per response. The table is published through a volatile field, whole, so a reader on any
 * thread sees complete arrays.
 */
public final class HttpDate {
    private static final DateTimeFormatter IMF_FIXDATE =
        DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

    private final Clock clock;
    private volatile byte[][] statusLines;

    public HttpDate(Clock clock) {
        this.clock = clock;
        refresh();
    }

    /** Re-encodes the table from the clock. */
    public void refresh() {
        byte[] date = ("Date: " + IMF_FIXDATE.format(Instant.ofEpochMilli(clock.millis())) + "\r\n")
            .getBytes(StandardCharsets.US_ASCII);
        byte[][] table = new byte[600][];
        for (int status = 100; status < 600; status++) {
            byte[] line = StatusLine.of(status);
            byte[] both = new byte[line.length + date.length];
            System.arraycopy(line, 0, both, 0, line.length);
            System.arraycopy(date, 0, both, line.length, date.length);
            table[status] = both;
        }
        statusLines = table;
    }

    /** {@code HTTP/1.1 <status> <reason>\r\nDate: <IMF-fixdate>\r\n}. Shared: do not modify. */
    public byte[] statusLine(int status) {
        return statusLines[status];
    }
}
