package dev.hotpath.http.testing;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A response as read off the wire by {@link RawHttpClient}: header names lower-cased, in order. */
public record RawResponse(int status, Map<String, List<String>> headers, byte[] body) {
    /** The only value of a header, or null; fails when it appears more than once. */
    public String header(String name) {
        List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
        if (values == null) {
            return null;
        }
        if (values.size() != 1) {
            throw new AssertionError("header " + name + " appears " + values.size() + " times");
        }
        return values.getFirst();
    }

    public String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }
}
