package dev.hotpath.loadgen.scenario;

import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;

/**
 * The shape of a timestamp an API returns, checked character by character against a pattern in which
 * each {@code 0} stands for any digit and every other character for itself: {@code 0000-00-00T00:00:00Z}
 * accepts {@code 2026-12-01T10:15:30Z} and refuses a zone offset, missing seconds or a fraction. No
 * parsing, no allocation: a shape check on every answer, not a calendar check.
 */
final class TimeText {
    /** {@code YYYY-MM-DDTHH:MM:SSZ}, UTC in whole seconds (the users API). */
    static final String SECONDS = "0000-00-00T00:00:00Z";
    /** {@code YYYY-MM-DDTHH:MM:SS.mmmZ}, UTC in milliseconds (the social API's stored form, whose text order is time order). */
    static final String MILLIS = "0000-00-00T00:00:00.000Z";

    private TimeText() {
    }

    /**
     * Whether the string value {@code p} stands at has exactly the shape of {@code pattern}, read from
     * the parser's own buffer: no {@code String} is made for it.
     */
    static boolean hasShape(JsonParser p, String pattern) throws IOException {
        if (p.getTextLength() != pattern.length()) {
            return false;
        }
        char[] text = p.getTextCharacters();
        int offset = p.getTextOffset();
        for (int i = 0; i < pattern.length(); i++) {
            char c = text[offset + i];
            char expected = pattern.charAt(i);
            if (expected == '0' ? c < '0' || c > '9' : c != expected) {
                return false;
            }
        }
        return true;
    }
}
