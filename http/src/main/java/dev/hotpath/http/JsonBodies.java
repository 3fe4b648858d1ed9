package dev.hotpath.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;

/**
 * Opens a request body for jackson-core's streaming parser, the one way every app reads a JSON body:
 * as UTF-8 only (RFC 8259 §8.1). Jackson's byte parser guesses the encoding itself and would take a
 * body in UTF-16 or UTF-32 (a byte order mark, or zero bytes among the first four) and answer 201 to
 * what the contract calls malformed; such a body is refused here instead. UTF-8 JSON never has a zero
 * byte (U+0000 must be escaped) and never starts with 0xFE or 0xFF, so the check looks at four bytes
 * at most and costs nothing measurable.
 */
public final class JsonBodies {
    private JsonBodies() {
    }

    /**
     * A parser over {@code body}, read as UTF-8.
     *
     * @throws JsonParseException for a body in another encoding (its message says so, without a location)
     * @throws IOException as {@link JsonFactory#createParser(byte[])}
     */
    public static JsonParser parser(JsonFactory json, byte[] body) throws IOException {
        if (inAnotherEncoding(body)) {
            throw new JsonParseException(null, "not UTF-8: UTF-16 and UTF-32 are refused");
        }
        return json.createParser(body);
    }

    /** Whether {@code body} starts as UTF-16 or UTF-32 JSON would: a byte order mark or a zero byte. */
    static boolean inAnotherEncoding(byte[] body) {
        if (body.length > 0 && ((body[0] & 0xFF) == 0xFE || (body[0] & 0xFF) == 0xFF)) {
            return true;
        }
        for (int i = 0, n = Math.min(4, body.length); i < n; i++) {
            if (body[i] == 0) {
                return true;
            }
        }
        return false;
    }
}
