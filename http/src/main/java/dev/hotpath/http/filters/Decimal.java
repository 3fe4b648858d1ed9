package dev.hotpath.http.filters;

/** Writes non-negative numbers as ASCII digits into a byte array, without the string a formatter would make. */
final class Decimal {
    private Decimal() {
    }

    /** Writes {@code value} (≥ 0) at {@code at}; returns the index after its last digit. */
    static int write(long value, byte[] into, int at) {
        int digits = 1;
        for (long rest = value / 10; rest > 0; rest /= 10) {
            digits++;
        }
        int end = at + digits;
        for (int i = end - 1; i >= at; i--) {
            into[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        return end;
    }
}
