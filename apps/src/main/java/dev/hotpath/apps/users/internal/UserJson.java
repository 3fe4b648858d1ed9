package dev.hotpath.apps.users.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.hotpath.http.BodySink;
import dev.hotpath.http.JsonBytes;
import dev.hotpath.http.Request;
import dev.hotpath.http.Response;
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

    /**
     * Fills {@code answers[1..count]} ({@code answers} must have more than {@code count} slots) with the
     * {@code 200} answers of the preloaded users: user {@code id} is named
     * {@link UserStore#PRELOADED_NAME_PREFIX} and its id, has that name and
     * {@link UserStore#PRELOADED_EMAIL_DOMAIN} as its email, and was created
     * {@link #PRELOADED_AT}, and each answer's body is the bytes {@link AnswerWriter} writes for it. Written
     * through one batch from one array of characters, reused: a name and an email string and a capturing
     * lambda per user were about 1.5 MB of garbage at every start, and a server whose requests allocate
     * nothing keeps each page of its young generation that start-up touched resident for its whole life.
     */
    public static void preloadedAnswers(Response[] answers, int count) {
        PreloadedUser user = new PreloadedUser();
        try (JsonBytes.Batch batch = new JsonBytes.Batch()) {
            for (int id = 1; id <= count; id++) {
                answers[id] = batch.response(200, user.withId(id));
            }
        }
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
     * The preloaded user of one id at a time, its name and email one array of characters: {@code
     * user-<id>@example.com}, the name its first {@code nameLength}. The builder writes the id's digits in
     * place and copies them into the array; both are sized for an int's ten digits, so neither allocates.
     */
    static final class PreloadedUser implements JsonBytes.Body {
        private static final String PREFIX = UserStore.PRELOADED_NAME_PREFIX;
        private static final String DOMAIN = UserStore.PRELOADED_EMAIL_DOMAIN;
        private static final int LONGEST = PREFIX.length() + 10 + DOMAIN.length(); // 10: an int's digits
        private final StringBuilder builder = new StringBuilder(LONGEST).append(PREFIX);
        private final char[] text = new char[LONGEST];
        private int id;
        private int nameLength;

        PreloadedUser withId(int id) {
            this.id = id;
            builder.setLength(PREFIX.length());
            nameLength = builder.append(id).length();
            builder.append(DOMAIN).getChars(0, builder.length(), text, 0);
            return this;
        }

        /** The user's fields in the order {@link AnswerWriter} writes them, the strings written from {@link #text}. */
        @Override
        public void write(JsonGenerator json) throws IOException {
            json.writeStartObject();
            json.writeNumberField("id", id);
            json.writeFieldName("name");
            json.writeString(text, 0, nameLength);
            json.writeFieldName("email");
            json.writeString(text, 0, nameLength + DOMAIN.length());
            json.writeStringField("created_at", PRELOADED_AT);
            json.writeEndObject();
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
     * {@link NewUser}. Read by this thread's {@link CreateBodyReader}, which says what is refused and how.
     */
    public static NewUser readCreate(Request request) throws Invalid {
        return READERS.get().read(request);
    }
}
