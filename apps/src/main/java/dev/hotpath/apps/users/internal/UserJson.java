package dev.hotpath.apps.users.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.hotpath.http.BodySink;
import dev.hotpath.http.JsonBytes;
import dev.hotpath.http.Request;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The users API's JSON both ways: a user written in the contract's field order, a page of users around
 * already encoded ones, and the create request read strictly (one object, exactly {@code name} and
 * {@code email}, both strings, neither repeated, nothing after it; {@link CreateBodyReader}).
 */
public final class UserJson {
    /** When the preloaded users were created: a constant, so their answers are known byte for byte. */
    public static final String PRELOADED_AT = "2026-01-01T00:00:00Z";
    private static final byte[] PAGE_START = "{\"users\":[".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PAGE_NEXT = "],\"next\":".getBytes(StandardCharsets.US_ASCII);
    private static final ThreadLocal<CreateBodyReader> READERS = ThreadLocal.withInitial(CreateBodyReader::new);
    private static final byte[] PAGE_LAST = "null}".getBytes(StandardCharsets.US_ASCII);

    private UserJson() {
    }

    private static void writeUser(JsonGenerator json, long id, String name, String email, String createdAt) throws IOException {
        json.writeStartObject();
        json.writeNumberField("id", id);
        json.writeStringField("name", name);
        json.writeStringField("email", email);
        json.writeStringField("created_at", createdAt);
        json.writeEndObject();
    }

    /**
     * Writes a user's JSON, {@code {"id":..,"name":..,"email":..,"created_at":..}} with the strings
     * escaped by jackson-core's generator, through one generator and buffer it keeps: the reference
     * {@link UserRowJson} is held to, and its writer for the rare row whose text is not UTF-8. One
     * thread at a time.
     */
    static final class AnswerWriter implements JsonBytes.Body {
        /** Replaced after a failure, which leaves a batch refusing every later value. */
        private JsonBytes.Batch batch = new JsonBytes.Batch();
        private long id;
        private String name;
        private String email;
        private String createdAt;

        /** The user's JSON. */
        byte[] json(long id, String name, String email, String createdAt) {
            this.id = id;
            this.name = name;
            this.email = email;
            this.createdAt = createdAt;
            try {
                return batch.write(this);
            } catch (RuntimeException | Error e) {
                batch = new JsonBytes.Batch();
                throw e;
            }
        }

        @Override
        public void write(JsonGenerator json) throws IOException {
            writeUser(json, id, name, email, createdAt);
        }
    }

    /**
     * The length of {@code {"users":[...],"next":ID}} around a list of users (their JSON and the commas
     * between them) of {@code listBytes} bytes; {@code next} is the id to ask after for the following
     * page, or negative for {@code null} (this page is the last).
     */
    public static int pageLength(int listBytes, long next) {
        return PAGE_START.length + listBytes + PAGE_NEXT.length
            + (next < 0 ? PAGE_LAST.length : BodySink.decimalLength(next) + 1);
    }

    /** Writes what comes before a page's first user. */
    public static void writePageStart(BodySink body) {
        body.write(PAGE_START);
    }

    /** Writes what comes after a page's last user; {@code next} as {@link #pageLength} takes it. */
    public static void writePageEnd(BodySink body, long next) {
        body.write(PAGE_NEXT);
        if (next < 0) {
            body.write(PAGE_LAST);
        } else {
            body.writeDecimal(next).writeByte('}');
        }
    }

    /** A create request that is refused: 400 for JSON that is not one object, 422 for the wrong fields. */
    public static final class Invalid extends Exception {
        public final boolean malformed;

        Invalid(boolean malformed, String message) {
            super(message, null, false, false);
            this.malformed = malformed;
        }
    }

    /**
     * The create request's {@code name} and {@code email}, checked for presence and type; ranges by
     * {@link NewUser}. Read by this thread's {@link CreateBodyReader}, which says what is refused and how;
     * the user is the reader's, refilled by the thread's next read.
     */
    public static NewUser readCreate(Request request) throws Invalid {
        return READERS.get().read(request);
    }
}
