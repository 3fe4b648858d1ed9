package dev.hotpath.loadgen.scenario;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.hotpath.loadgen.Answer;
import java.io.IOException;

/**
 * The users API of the engine comparison ({@code docs/ENGINES.md}) as the harness reads it: every
 * server preloads users 1 to {@value #PRELOADED}, each known byte for byte, so a read is checked by
 * comparing the whole body with bytes built once; a created user is parsed, as its id and time are
 * the server's.
 */
final class Users {
    /** The preloaded users: ids 1 to this. */
    static final int PRELOADED = 10_000;
    /** Users on the page the mix asks for ({@code GET /api/users?limit=20}). */
    static final int PAGE = 20;
    private static final String PRELOADED_AT = "2026-01-01T00:00:00Z";

    private Users() {
    }

    /** The exact JSON of preloaded user {@code id}: fields in the contract's order, no spaces. */
    static String preloaded(long id) {
        return "{\"id\":" + id + ",\"name\":\"user-" + id + "\",\"email\":\"user-" + id
            + "@example.com\",\"created_at\":\"" + PRELOADED_AT + "\"}";
    }

    /** The exact body of {@code GET /api/users?limit=20}: users 1 to 20, then {@code "next":20}. */
    static String firstPage() {
        StringBuilder page = new StringBuilder("{\"users\":[");
        for (int id = 1; id <= PAGE; id++) {
            page.append(id == 1 ? "" : ",").append(preloaded(id));
        }
        return page.append("],\"next\":").append(PAGE).append('}').toString();
    }

    /**
     * The id of a created user, when the answer is exactly one user object with the fields in order, an id
     * above the preloaded ones, the {@code name} and {@code email} sent and a {@code created_at} in whole
     * UTC seconds; -1 otherwise.
     */
    static long createdId(Answer answer, String name, String email) {
        try (JsonParser p = Links.JSON.createParser(answer.bodyArray(), 0, answer.bodyLength())) {
            if (!(p.nextToken() == JsonToken.START_OBJECT && field(p, "id") && p.nextToken() == JsonToken.VALUE_NUMBER_INT)) {
                return -1;
            }
            long id = p.getLongValue();
            boolean user = id > PRELOADED
                && field(p, "name") && p.nextToken() == JsonToken.VALUE_STRING && p.getText().equals(name)
                && field(p, "email") && p.nextToken() == JsonToken.VALUE_STRING && p.getText().equals(email)
                && field(p, "created_at") && p.nextToken() == JsonToken.VALUE_STRING
                && TimeText.hasShape(p, TimeText.SECONDS)
                && p.nextToken() == JsonToken.END_OBJECT && p.nextToken() == null;
            return user ? id : -1;
        } catch (IOException e) {
            return -1;
        }
    }

    private static boolean field(JsonParser p, String name) throws IOException {
        return p.nextToken() == JsonToken.FIELD_NAME && p.currentName().equals(name);
    }
}
