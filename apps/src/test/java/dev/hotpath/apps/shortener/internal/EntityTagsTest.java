package dev.hotpath.apps.shortener.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code If-None-Match} as RFC 9110 §13.1.2 reads it. */
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
}
