package dev.hotpath.apps.social;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.hotpath.http.Response;
import dev.hotpath.store.Durability;
import dev.hotpath.store.RowQuery;
import dev.hotpath.store.SqliteDatabase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Posts written as the contract's JSON, whatever their text holds and wherever it holds it. */
class PostJsonTest {
    private static final JsonFactory JSON = new JsonFactory();

    @Test
    void writesTheKeysInTheContractsOrder() {
        Response created = PostJson.created(42, "hello", "2026-12-06T18:00:00.000Z", "alice");
        assertThat(created.status()).isEqualTo(201);
        assertThat(new String(created.wire(), 0, created.headLength(), StandardCharsets.US_ASCII))
            .startsWith("Content-Type: application/json\r\n");
        assertThat(body(created)).isEqualTo(
            "{\"post\":{\"id\":42,\"body\":\"hello\",\"created_at\":\"2026-12-06T18:00:00.000Z\",\"author\":\"alice\",\"like_count\":0}}");
    }

    @Test
    void escapesEveryByteJsonMustWhereverItIsInAWord() throws IOException {
        StringBuilder special = new StringBuilder("\"\\\u007fé✓🚀/<>&");
        for (char c = 0; c < 0x20; c++) {
            special.append(c);
        }
        for (int length = 1; length <= 19; length++) {
            for (int at = 0; at < length; at++) {
                for (int i = 0; i < special.length(); i++) {
                    char c = special.charAt(i);
                    if (Character.isHighSurrogate(c) || Character.isLowSurrogate(c)) {
                        continue;
                    }
                    String body = "a".repeat(at) + c + "b".repeat(length - at - 1);
                    byte[] answer = bodyBytes(PostJson.created(7, body, "t", "u"));
                    assertThat(bodyOf(answer)).as("length %d, U+%04X at %d", length, (int) c, at).isEqualTo(body);
                    for (byte b : answer) {
                        assertThat(b < 0 || b >= 0x20).as("no raw control character in the answer").isTrue();
                    }
                }
            }
        }
    }

    @Test
    void refusesANullWhereThePostHasText(@TempDir Path dir) throws SQLException {
        try (Connection db = SqliteDatabase.openForWriting(dir.resolve("n.db"), Durability.FULL);
             RowQuery query = RowQuery.prepare(db, "SELECT 1, NULL, 't', 'u', 0");
             RowQuery.Rows row = query.run()) {
            assertThat(row.next()).isTrue();
            assertThatThrownBy(() -> new PostJson(16).post(row)).isInstanceOf(IllegalStateException.class).hasMessageContaining("NULL");
        }
    }

    @Test
    void writesTheShortEscapesAndLowercaseHexForOtherControlCharacters() {
        String answer = body(PostJson.created(1, "q\" b\\ n\n r\r t\t b\b f\f z\u0000 e\u001b", "t", "u"));
        assertThat(answer).contains("\"body\":\"q\\\" b\\\\ n\\n r\\r t\\t b\\b f\\f z\\u0000 e\\u001b\"");
    }

    @Test
    void growsForABodyLargerThanItsBuffer() throws IOException {
        String body = "x\"é".repeat(3_000);
        assertThat(bodyOf(bodyBytes(PostJson.created(1, body, "t", "u")))).isEqualTo(body);
    }

    /** An answer's body: what follows its header fields. */
    static byte[] bodyBytes(Response answer) {
        return Arrays.copyOfRange(answer.wire(), answer.headLength(), answer.wire().length);
    }

    /** An answer's body as text (UTF-8); also what PostReadsTest reads the reads' answers with. */
    static String body(Response answer) {
        return new String(bodyBytes(answer), StandardCharsets.UTF_8);
    }

    /** The {@code body} of the post in an answer, through a JSON parser; the other fields checked on the way. */
    private static String bodyOf(byte[] answer) throws IOException {
        Map<String, String> fields = new LinkedHashMap<>();
        try (JsonParser p = JSON.createParser(answer)) {
            assertThat(p.nextToken()).isEqualTo(JsonToken.START_OBJECT);
            assertThat(p.nextFieldName()).isEqualTo("post");
            assertThat(p.nextToken()).isEqualTo(JsonToken.START_OBJECT);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                fields.put(name, p.getText());
            }
            assertThat(p.nextToken()).isEqualTo(JsonToken.END_OBJECT);
            assertThat(p.nextToken()).isNull();
        }
        assertThat(fields.keySet()).containsExactly("id", "body", "created_at", "author", "like_count");
        assertThat(fields).containsEntry("created_at", "t").containsEntry("author", "u").containsEntry("like_count", "0");
        return fields.get("body");
    }
}
