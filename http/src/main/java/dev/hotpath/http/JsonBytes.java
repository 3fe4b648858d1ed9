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
 * ({@link Response#json(int, String)}); many values written at once, by a {@link Batch}.
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

    /**
     * The UTF-8 bytes of the one JSON value {@code body} writes.
     *
     * @throws IllegalStateException when {@code body} did not write exactly one complete value
     */
    public static byte[] write(Body body) {
        try (Batch batch = new Batch()) {
            return batch.write(body);
        }
    }

    /**
     * Writes many values, one after another, through one generator into one reused buffer: for answers
     * built in bulk, such as an app's preloaded data at start-up, where {@link #write} would leave a
     * generator, its context and a buffer behind for every value (about 650 bytes each, so 6.5 MB for
     * 10,000 users, all of it resident until the first collection). Each body must write exactly one
     * complete value; one that writes none, several, or half of one, or that throws, leaves the
     * generator in a state no later value could be written from, so the batch refuses it and every
     * later call. One thread at a time; close it when done.
     */
    public static final class Batch implements AutoCloseable {
        private final Buffer out = new Buffer();
        private final JsonGenerator json;
        private boolean broken;

        public Batch() {
            try {
                json = FACTORY.createGenerator(out, JsonEncoding.UTF8);
            } catch (IOException e) {
                throw new UncheckedIOException("opening a JSON generator on memory failed", e);
            }
            json.setRootValueSeparator(null);
        }

        /**
         * The UTF-8 bytes of the one value {@code body} writes, the same bytes {@link JsonBytes#write}
         * gives for it.
         *
         * @throws IllegalStateException when {@code body} did not write exactly one complete value, or an
         *     earlier call failed
         */
        public byte[] write(Body body) {
            writeValue(body);
            byte[] bytes = out.toByteArray();
            out.reset();
            return bytes;
        }

        /**
         * The {@code application/json} answer with the value {@code body} writes, encoded straight from
         * this batch's buffer: the value is copied once, into the answer.
         *
         * @throws IllegalStateException as {@link #write} does
         * @throws IllegalArgumentException as {@link Response#of} does, for a status without a body
         */
        public Response response(int status, Body body) {
            writeValue(body);
            try {
                return Response.of(status, "application/json", out.bytes(), out.size());
            } finally {
                out.reset(); // also when the status refuses a body, so the next value starts alone
            }
        }

        private void writeValue(Body body) {
            if (broken) {
                throw new IllegalStateException("an earlier value of this batch failed");
            }
            broken = true;
            int written = json.getOutputContext().getEntryCount();
            try {
                body.write(json);
                json.flush();
            } catch (IOException e) {
                throw new UncheckedIOException("writing JSON to memory failed", e);
            }
            if (!json.getOutputContext().inRoot() || json.getOutputContext().getEntryCount() != written + 1) {
                throw new IllegalStateException("a batch's body must write exactly one complete JSON value");
            }
            broken = false;
        }

        /** A byte stream that lets its owner read what was written in place, without a copy. */
        private static final class Buffer extends ByteArrayOutputStream {
            Buffer() {
                super(256);
            }

            byte[] bytes() {
                return buf;
            }
        }

        @Override
        public void close() {
            try {
                json.close();
            } catch (IOException e) {
                throw new UncheckedIOException("closing a JSON generator on memory failed", e);
            }
        }
    }

    /** An {@code application/json} answer with the bytes {@code body} writes, copied once, into the answer. */
    public static Response response(int status, Body body) {
        try (Batch batch = new Batch()) {
            return batch.response(status, body);
        }
    }
}
