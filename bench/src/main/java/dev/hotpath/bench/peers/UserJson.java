package dev.hotpath.bench.peers;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The JSON bodies of the users API, written with Jackson's streaming generator: a user is
 * {@code {"id":1,"name":"user-1","email":"user-1@example.com","created_at":"..."}}, exactly these
 * fields in this order, no spaces; a page is {@code {"users":[...],"next":ID}} with {@code null} for
 * the last page; errors are {@code {"error":"...","message":"..."}}. Strings are escaped the JSON way
 * (quotes, backslashes, control characters) and written as UTF-8.
 *
 * <p>Cost: one generator and one growing byte array per body, as a Jackson user pays.
 */
final class UserJson {
    static final String CONTENT_TYPE = "application/json";

    /** First: the error bodies below are written with it while the class initializes. */
    private static final JsonFactory FACTORY = new JsonFactory();

    static final byte[] UNAUTHORIZED = error("unauthorized", "a valid bearer token is required");
    static final byte[] NOT_FOUND = error("not_found", "no user with this id");
    static final byte[] INVALID_JSON = error("invalid_json", "the body must be one JSON object");
    static final byte[] INVALID_USER = error("invalid_user",
        "name (1-100 characters) and email (3-254 characters, with an @ inside) are required, and nothing else");
    static final byte[] UNSUPPORTED_MEDIA_TYPE = error("unsupported_media_type", "the body must be application/json");

    private UserJson() {
    }

    static byte[] user(User user) {
        return write(json -> writeUser(json, user));
    }

    /** A page of users; {@code next} is {@code null} on the last page. */
    static byte[] page(List<User> users, Long next) {
        return write(json -> {
            json.writeStartObject();
            json.writeArrayFieldStart("users");
            for (User user : users) {
                writeUser(json, user);
            }
            json.writeEndArray();
            if (next == null) {
                json.writeNullField("next");
            } else {
                json.writeNumberField("next", next);
            }
            json.writeEndObject();
        });
    }

    static byte[] error(String error, String message) {
        return write(json -> {
            json.writeStartObject();
            json.writeStringField("error", error);
            json.writeStringField("message", message);
            json.writeEndObject();
        });
    }

    private static void writeUser(JsonGenerator json, User user) throws IOException {
        json.writeStartObject();
        json.writeNumberField("id", user.id());
        json.writeStringField("name", user.name());
        json.writeStringField("email", user.email());
        json.writeStringField("created_at", user.createdAt());
        json.writeEndObject();
    }

    private interface Body {
        void writeTo(JsonGenerator json) throws IOException;
    }

    private static byte[] write(Body body) {
        try (ByteArrayBuilder bytes = new ByteArrayBuilder()) {
            try (JsonGenerator json = FACTORY.createGenerator(bytes)) {
                body.writeTo(json);
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON to memory", e); // a byte array does not fail
        }
    }
}
