package dev.hotpath.http.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

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
 *
 * <p>The date is written by hand from the second's fields, not by a {@code DateTimeFormatter}: the
 * formatter's first day and month names load the JDK's locale data, about 1.2 MB of garbage at every
 * server's start, resident in the young generation from then on.
 */
public final class HttpDate {
    private static final byte[] LINE = "Date: ---, 00 --- 0000 00:00:00 GMT\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[][] DAYS = ascii("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun");
    private static final byte[][] MONTHS = ascii("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec");
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
        current = new Second(dateLine(Math.floorDiv(clock.millis(), 1000)), new byte[600][]);
    }

    /** {@code Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n} for a second since the epoch (years 1970 to 9999). */
    static byte[] dateLine(long epochSecond) {
        LocalDateTime time = LocalDateTime.ofEpochSecond(epochSecond, 0, ZoneOffset.UTC);
        byte[] line = LINE.clone();
        System.arraycopy(DAYS[time.getDayOfWeek().ordinal()], 0, line, 6, 3);
        digits(line, 11, 2, time.getDayOfMonth());
        System.arraycopy(MONTHS[time.getMonthValue() - 1], 0, line, 14, 3);
        digits(line, 18, 4, time.getYear());
        digits(line, 23, 2, time.getHour());
        digits(line, 26, 2, time.getMinute());
        digits(line, 29, 2, time.getSecond());
        return line;
    }

    /** Writes {@code value}'s last {@code count} decimal digits at {@code line[at]}, zero-padded. */
    private static void digits(byte[] line, int at, int count, int value) {
        for (int i = at + count - 1; i >= at; i--) {
            line[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
    }

    private static byte[][] ascii(String... names) {
        byte[][] bytes = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            bytes[i] = names[i].getBytes(StandardCharsets.US_ASCII);
        }
        return bytes;
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
