package dev.hotpath.http.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Status lines followed by the {@code Date} header (RFC 9110 §6.6.1, IMF-fixdate), encoded once per
 * second for each status in use. One timer per server calls {@link #refresh()} each second, which
 * formats the date and starts an empty table; the first response of each status in that second
 * builds its entry, and every response copies one array.
 *
 * <p>Why entries are filled on demand rather than all 500 at each refresh: that cost 34 KB of arrays
 * a second, and a server whose requests allocate nothing then owes its young generation's growth to
 * the clock alone: every page of it touched, and kept resident, within an hour of idling. Now a second
 * costs the table (2.4 KB) and an array for each status answered in it.
 *
 * <p>The table is published whole through a volatile field; its entries are written with release and
 * read with acquire semantics, so a reader on any thread sees complete arrays. Two threads that fill
 * the same entry at once each build equal bytes, and either may win.
 */
public final class HttpDate {
    private static final DateTimeFormatter IMF_FIXDATE =
        DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);
    private static final VarHandle ENTRY = MethodHandles.arrayElementVarHandle(byte[][].class);

    private final Clock clock;
    private volatile Second current;

    /** One second's date line and the status lines built with it so far. */
    private record Second(byte[] date, byte[][] statusLines) {
    }

    public HttpDate(Clock clock) {
        this.clock = clock;
        refresh();
    }

    /** Re-encodes the date from the clock; status lines follow on first use. */
    public void refresh() {
        byte[] date = ("Date: " + IMF_FIXDATE.format(Instant.ofEpochMilli(clock.millis())) + "\r\n")
            .getBytes(StandardCharsets.US_ASCII);
        current = new Second(date, new byte[600][]);
    }

    /**
     * {@code HTTP/1.1 <status> <reason>\r\nDate: <IMF-fixdate>\r\n}. Shared: do not modify.
     *
     * @throws IllegalArgumentException from 0 to 99; {@link IndexOutOfBoundsException} below 0 or above 599
     */
    public byte[] statusLine(int status) {
        Second second = current;
        byte[] both = (byte[]) ENTRY.getAcquire(second.statusLines, status);
        return both != null ? both : fill(second, status);
    }

    private static byte[] fill(Second second, int status) {
        byte[] line = StatusLine.of(status);
        byte[] both = new byte[line.length + second.date.length];
        System.arraycopy(line, 0, both, 0, line.length);
        System.arraycopy(second.date, 0, both, line.length, second.date.length);
        ENTRY.setRelease(second.statusLines, status, both);
        return both;
    }
}
