package dev.hotpath.apps.shortener.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code If-None-Match} as RFC 9110 §13.1.2 reads it, and QR answers built on it. */
class EntityTagsTest {
    private static final String TAG = EntityTags.of("content");

    @Test
    void aTagIsTheQuotedStartOfTheContentsHashAndFollowsTheContent() {
        assertThat(TAG).matches("\"[0-9a-f]{24}\"");
        assertThat(EntityTags.of("content".getBytes(StandardCharsets.UTF_8))).isEqualTo(TAG);
        assertThat(EntityTags.of("content.")).isNotEqualTo(TAG);
    }

    @Test
    void ifNoneMatchNamesTheTagAloneInAListWeaklyOrByStar() {
        assertThat(EntityTags.matches(TAG, TAG)).isTrue();
        assertThat(EntityTags.matches("\"a\", " + TAG + " ,\"b\"", TAG)).isTrue();
        assertThat(EntityTags.matches("W/" + TAG, TAG)).as("weak comparison").isTrue();
        assertThat(EntityTags.matches(" * ", TAG)).isTrue();
    }

    @Test
    void anythingElseIsNoMatch() {
        assertThat(EntityTags.matches(null, TAG)).isFalse();
        assertThat(EntityTags.matches("", TAG)).isFalse();
        assertThat(EntityTags.matches(TAG.replace("\"", ""), TAG)).as("unquoted").isFalse();
        assertThat(EntityTags.matches("\"a\", \"b\"", TAG)).isFalse();
        assertThat(EntityTags.matches("W/\"x\"" + TAG, TAG)).isFalse();
    }

    @Test
    void aQrCodesTagDependsOnItsShortUrlOnly() {
        QrCodes codes = new QrCodes("https://sho.rt/x");
        String tag = header(codes.answer("abc-def", null).wire(), "ETag");
        assertThat(header(new QrCodes("https://sho.rt/x").answer("abc-def", null).wire(), "ETag")).isEqualTo(tag);
        assertThat(header(codes.answer("abc-deg", null).wire(), "ETag")).isNotEqualTo(tag);
        assertThat(header(new QrCodes("https://sho.rt/y").answer("abc-def", null).wire(), "ETag")).isNotEqualTo(tag);
        assertThat(codes.answer("abc-def", tag).status()).isEqualTo(304);
        assertThat(codes.answer("abc-def", "\"other\"").status()).isEqualTo(200);
    }

    @Test
    void aQrCodeOfALongUrlStaysOneSvgPath() {
        String svg = QrCodes.svg("https://sho.rt/" + "x".repeat(200));
        assertThat(svg).startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ").endsWith("\"/></svg>");
        assertThat(svg.split("<path").length).isEqualTo(2);
    }

    private static String header(byte[] wire, String name) {
        for (String line : new String(wire, StandardCharsets.ISO_8859_1).split("\r\n")) {
            if (line.startsWith(name + ": ")) {
                return line.substring(name.length() + 2);
            }
        }
        throw new AssertionError("no " + name + " header");
    }
}
