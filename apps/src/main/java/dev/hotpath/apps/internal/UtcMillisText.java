package dev.hotpath.apps.internal;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * The one time format of the apps' answers (the shortener's links, the messages' {@code created_at}):
 * RFC 3339, UTC, milliseconds, years 1970 to 9999. In a package the apps module shares with itself
 * and exports to nobody.
 */
public final class UtcMillisText {
    /** The first instant whose year has five digits: RFC 3339 has four, so expiries stop before it. */
    public static final Instant END_OF_YEAR_9999 = LocalDateTime.of(10_000, 1, 1, 0, 0).toInstant(ZoneOffset.UTC);

    private UtcMillisText() {
    }

    /**
     * RFC 3339 UTC with milliseconds ({@code 2026-11-30T04:00:00.123Z}), written digit by digit: a
     * {@code DateTimeFormatter} was a sixth of the shortener writer's CPU when it answered creates.
     * Times that are {@link #writable} (the clock's, the accepted expiries, a verified store's).
     */
    public static String format(long epochMillis) {
        LocalDateTime t = LocalDateTime.ofEpochSecond(Math.floorDiv(epochMillis, 1000L), 0, ZoneOffset.UTC);
        byte[] text = new byte[24];
        digits(text, 0, t.getYear(), 4);
        text[4] = '-';
        digits(text, 5, t.getMonthValue(), 2);
        text[7] = '-';
        digits(text, 8, t.getDayOfMonth(), 2);
        text[10] = 'T';
        digits(text, 11, t.getHour(), 2);
        text[13] = ':';
        digits(text, 14, t.getMinute(), 2);
        text[16] = ':';
        digits(text, 17, t.getSecond(), 2);
        text[19] = '.';
        digits(text, 20, (int) Math.floorMod(epochMillis, 1000L), 3);
        text[23] = 'Z';
        return new String(text, StandardCharsets.ISO_8859_1);
    }

    /** Whether {@link #format} can write {@code epochMillis}: from the epoch to the end of year 9999. */
    public static boolean writable(long epochMillis) {
        return epochMillis >= 0 && epochMillis < END_OF_YEAR_9999.toEpochMilli();
    }

    /** Writes {@code value} as exactly {@code width} decimal digits, zero-padded, at {@code at}. */
    private static void digits(byte[] text, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            text[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
    }
}
