package dev.hotpath.apps.messages.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MessageIdTest {
    private static final String TEXT = "0194f5c2-7a3b-7cde-8f01-23456789abcd";

    @Test
    void parsesAndWritesTheCanonicalForm() {
        MessageId id = MessageId.parse(TEXT);
        assertThat(id).isEqualTo(new MessageId(0x0194f5c27a3b7cdeL, 0x8f0123456789abcdL));
        assertThat(id.toString()).isEqualTo(TEXT);
    }

    @Test
    void readsUppercaseAndWritesLowercase() {
        assertThat(MessageId.parse(TEXT.toUpperCase()).toString()).isEqualTo(TEXT);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "0194f5c2-7a3b-7cde-8f01-23456789abc", "0194f5c2-7a3b-7cde-8f01-23456789abcde",
        "0194f5c2x7a3b-7cde-8f01-23456789abcd", "0194f5c27a3b-7cde-8f01-23456789abcd-", "0194f5c2-7a3b-7cde-8f01-23456789abcg",
        "0194f5c2-7a3b-7cde-8f01-23456789abc\uff21", "0194f5c2-7a3b-7cde-8f01-23456789abc\u0663",
        "{194f5c2-7a3b-7cde-8f01-23456789abc}"})
    void refusesAnythingElse(String text) {
        assertThat(MessageId.parse(text)).isNull();
    }

    @Test
    void bytesRoundTripBigEndian() {
        MessageId id = MessageId.parse(TEXT);
        byte[] bytes = id.bytes();
        assertThat(bytes[0]).isEqualTo((byte) 0x01);
        assertThat(bytes[15]).isEqualTo((byte) 0xcd);
        assertThat(MessageId.ofBytes(bytes)).isEqualTo(id);
    }

    @Test
    void orderIsTheOrderOfTheBytesAndOfTheText() {
        Random random = new Random(20261130L);
        for (int i = 0; i < 10_000; i++) {
            MessageId a = new MessageId(random.nextLong(), random.nextLong());
            MessageId b = new MessageId(random.nextBoolean() ? a.high() : random.nextLong(), random.nextLong());
            int byId = Integer.signum(a.compareTo(b));
            assertThat(Integer.signum(Arrays.compareUnsigned(a.bytes(), b.bytes()))).as("%s vs %s", a, b).isEqualTo(byId);
            assertThat(Integer.signum(a.toString().compareTo(b.toString()))).as("%s vs %s", a, b).isEqualTo(byId);
        }
    }
}
