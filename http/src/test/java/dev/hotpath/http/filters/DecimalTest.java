package dev.hotpath.http.filters;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DecimalTest {
    @Test
    void writesEveryDigitCountLikeLongToString() {
        long[] values = {0, 7, 9, 10, 99, 100, 12_345, 1_796_120_130_700L, 999_999_999_999_999_999L,
            1_000_000_000_000_000_000L, Long.MAX_VALUE};
        for (long value : values) {
            byte[] into = new byte[24];
            into[0] = 'x';
            int end = Decimal.write(value, into, 1);
            assertThat(new String(into, 0, end, StandardCharsets.US_ASCII)).isEqualTo("x" + value);
        }
    }
}
