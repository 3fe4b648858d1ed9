package dev.hotpath.http;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Writes a JSON answer to bytes with jackson-core's streaming generator, the one way every app turns
 * JSON into a body: strings escaped by the generator, UTF-8, no intermediate {@code String}.
 *
 * <p>Costs a 256-byte buffer that grows as needed and one copy of the result; the generator's own
 * buffers are recycled by jackson. Answers known when the server starts are better built once
 * ({@link Response#json(int, String)}).
 */
public final class JsonBytes {
    private static final JsonFactory FACTORY = new JsonFactory();

    private JsonBytes() {
    }

    /** Something that writes one JSON value to a generator. */
    @FunctionalInterface
    public interface Body {
        void write(JsonGenerator json) throws IOException;
    }

    /** The UTF-8 bytes {@code body} writes. */
    public static byte[] write(Body body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator json = FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
            body.write(json);
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON to memory failed", e);
        }
        return out.toByteArray();
    }

    /** An {@code application/json} answer with the bytes {@code body} writes. */
    public static Response response(int status, Body body) {
        return Response.of(status, "application/json", write(body));
    }
}
