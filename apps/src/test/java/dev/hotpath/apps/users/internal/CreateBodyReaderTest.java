package dev.hotpath.apps.users.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.hotpath.http.JsonBodies;
import dev.hotpath.http.testing.SeededCases;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The create body reader against jackson-core's parser, which it replaced: on every body both must
 * give the same verdict (the same user, or a refusal with the same code, and for 422 the same
 * message). The oracle below is the reader this app had before, with the one rule the new one
 * changed written out: only a repeated {@code name} or {@code email} of the top object is a 400.
 */
class CreateBodyReaderTest {
    private static final JsonFactory JACKSON = new JsonFactory();
    private static final String[] FRAGMENTS = {"{", "}", "[", "]", ",", ":", " ", "\n", "\"name\"", "\"email\"", "\"x\"",
        "\"a@b\"", "\"Zoë\"", "\"😀\"", "\"n\\u0061me\"", "\"\\ud800\"", "\"\\ud83d\\ude00\"", "\"\\u00\"", "\"\\q\"",
        "\"\\n\\t\\/\"", "null", "true", "false", "tru", "1", "-0", "01", "1.5e3", "1.", "-", "1e400", "'a'", "/*", "\u0000",
        "\"\u0001\"", "\uFEFF"};
    private static final String[] VALUES = {"\"Ann\"", "\"a@example.com\"", "\"\"", "\"x\"", "1", "null", "{}", "[1,{\"a\":[]}]",
        "\"" + "n".repeat(101) + "\"", "\"\\\"q\\\"\"", "\"é中\"", "\"\\u00e9\"", "\"\\udc00\"", "true"};
    private static final String[] KEYS = {"name", "email", "admin", "n\\u0061me", "emai\\u006c", "Name", ""};

    private record Verdict(String outcome) {
        @Override
        public String toString() {
            return outcome;
        }
    }

    private static Verdict ours(byte[] body) {
        try {
            NewUser user = read(body);
            return new Verdict("user " + name(user) + " / " + email(user));
        } catch (UserJson.Invalid e) {
            return new Verdict(e.malformed ? "400" : "422 " + e.getMessage());
        }
    }

    /** What jackson made of the body, as the app read it before, repeats of other names not checked. */
    private static Verdict jackson(byte[] body) {
        String name = null;
        String email = null;
        boolean nameSeen = false;
        boolean emailSeen = false;
        String unexpected = null;
        try (JsonParser p = JsonBodies.parser(JACKSON, body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return new Verdict("400");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                if (field.equals("name") && nameSeen || field.equals("email") && emailSeen) {
                    return new Verdict("400");
                }
                nameSeen |= field.equals("name");
                emailSeen |= field.equals("email");
                JsonToken value = p.nextToken();
                if (value == JsonToken.START_OBJECT || value == JsonToken.START_ARRAY) {
                    p.skipChildren();
                }
                if (field.equals("name") && value == JsonToken.VALUE_STRING) {
                    name = p.getText();
                } else if (field.equals("email") && value == JsonToken.VALUE_STRING) {
                    email = p.getText();
                } else if (unexpected == null) {
                    unexpected = field.equals("name") || field.equals("email") ? field + " must be a string"
                        : "unknown field " + field + " (only name and email)";
                }
            }
            if (p.nextToken() != null) {
                return new Verdict("400");
            }
        } catch (IOException e) {
            return new Verdict("400");
        }
        if (unexpected != null) {
            return new Verdict("422 " + unexpected);
        }
        try {
            NewUser user = NewUsers.of(utf8OrNull(name), utf8OrNull(email));
            user.check(name != null && email != null && (CreateBodyReader.hasLoneSurrogate(name) || CreateBodyReader.hasLoneSurrogate(email)));
            return new Verdict("user " + name(user) + " / " + email(user));
        } catch (UserJson.Invalid e) {
            return new Verdict("422 " + e.getMessage());
        }
    }

    /**
     * Every body is read by one reader, as an event loop's reads them all: a field left over from the
     * body before would change a verdict.
     */
    private static final CreateBodyReader READER = new CreateBodyReader();

    private static NewUser read(byte[] body) throws UserJson.Invalid {
        return READER.read(body, body.length);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] utf8OrNull(String text) {
        return text == null ? null : utf8(text);
    }

    private static String name(NewUser user) {
        return new String(user.name(), 0, user.nameLength(), StandardCharsets.UTF_8);
    }

    private static String email(NewUser user) {
        return new String(user.email(), 0, user.emailLength(), StandardCharsets.UTF_8);
    }

    private static String show(byte[] body) {
        return new String(body, StandardCharsets.UTF_8) + " (hex " + HexFormat.of().formatHex(body) + ")";
    }

    @Test
    void readsWhatTheContractAcceptsWithEveryEscapeResolved() throws UserJson.Invalid {
        NewUser user = read(utf8("\uFEFF\r\n{ \"email\" : \"z\\u00e9@x\\/y\" ,\t\"n\\u0061me\":"
            + "\"Zo\u00eb \\\"Z\\\" \\ud83d\\ude00 \u4e2d \\\\ \\b\\f\\n\\r\\t\"}\n"));
        assertThat(name(user)).isEqualTo("Zo\u00eb \"Z\" \ud83d\ude00 \u4e2d \\ \b\f\n\r\t");
        assertThat(email(user)).isEqualTo("z\u00e9@x/y");
    }

    @Test
    void refusesEachKindOfBadBodyWithItsCode() {
        String[][] cases = {
            {"", "400"}, {"  ", "400"}, {"[]", "400"}, {"\"x\"", "400"}, {"{", "400"}, {"{\"name\":\"a\",}", "400"},
            {"{\"name\":\"a\" \"email\":\"a@b\"}", "400"}, {"{\"name\":'a',\"email\":\"a@b\"}", "400"},
            {"{name:\"a\",\"email\":\"a@b\"}", "400"}, {"{\"name\":\"a\",\"email\":\"a@b\"} x", "400"},
            {"{\"name\":\"a\",\"email\":\"a@b\"}{}", "400"}, {"{\"name\":\"a\",\"name\":\"b\",\"email\":\"a@b\"}", "400"},
            {"{\"name\":\"a\",\"email\":\"a@b\",\"x\":01}", "400"}, {"{\"name\":\"a\",\"email\":\"a@b\",\"x\":1.}", "400"},
            {"{\"name\":\"a\",\"email\":\"a@b\",\"x\":tru}", "400"}, {"{\"name\":\"a\",\"email\":\"a@b\",\"x\":truex}", "400"},
            {"{\"name\":\"a\\x\",\"email\":\"a@b\"}", "400"}, {"{\"name\":\"a\\u12g4\",\"email\":\"a@b\"}", "400"},
            {"{\"name\":\"a\u0001\",\"email\":\"a@b\"}", "400"}, {"/*c*/{\"name\":\"a\",\"email\":\"a@b\"}", "400"},
            {"{\"name\":\"a\",\"email\":\"a@b\",\"x\":[1,]}", "400"},
            {"{\"name\":1,\"email\":\"a@b\"}", "422 name must be a string"},
            {"{\"name\":\"a\",\"email\":null}", "422 email must be a string"},
            {"{\"name\":\"a\",\"email\":\"a@b\",\"x\\u0079\":{\"a\":[1,2,{}]}}", "422 unknown field xy (only name and email)"},
            {"{\"name\":\"a\"}", "422 name and email are required"},
            {"{\"name\":\"a\\ud800\",\"email\":\"a@b\"}", "422 name and email must be valid Unicode text (a lone surrogate is not)"},
        };
        for (String[] c : cases) {
            assertThat(ours(utf8(c[0]))).as(c[0]).hasToString(c[1]);
            assertThat(jackson(utf8(c[0]))).as("the oracle, on " + c[0]).hasToString(c[1]);
        }
    }

    /** The two refusals that moved (see the reader's javadoc), and bytes that are not UTF-8 at all. */
    @Test
    void refusesBadUtf8As400AndLeavesRepeatsInsideRefusedFieldsTo422() {
        for (String hex : new String[] {"ff", "80", "c0af", "c2", "e4b8", "eda080", "f4908080", "f8888080"}) {
            byte[] body = HexFormat.of().parseHex("7b226e616d65223a22" + hex + "222c22656d61696c223a2261406222" + "7d");
            assertThat(ours(body)).as(hex).hasToString("400");
        }
        assertThat(ours(utf8("{\"name\":\"a\",\"email\":\"a@b\",\"x\":{\"y\":1,\"y\":2}}")))
            .hasToString("422 unknown field x (only name and email)");
        assertThat(ours(utf8("{\"x\":1,\"x\":2,\"name\":\"a\",\"email\":\"a@b\"}"))).hasToString("422 unknown field x (only name and email)");
    }

    /** jackson's limits, at their edges: 1,000 levels counting the top object, 1,000 digits in a number. */
    @Test
    void refusesWhatPassesJacksonsNestingAndNumberLimitsAsItDid() {
        String fields = "{\"name\":\"a\",\"email\":\"a@b\",\"x\":";
        String[] values = {"[".repeat(999) + "]".repeat(999), "[".repeat(1000) + "]".repeat(1000),
            "1".repeat(1000), "-" + "1".repeat(1001), "1." + "1".repeat(999), "1." + "1".repeat(1000),
            "1".repeat(500) + "." + "1".repeat(499) + "e+1", "1".repeat(500) + "." + "1".repeat(499) + "e+11",
            "1e" + "1".repeat(1000), "0." + "0".repeat(999)};
        String[] expected = {"422", "400", "422", "400", "422", "400", "422", "400", "400", "422"};
        for (int i = 0; i < values.length; i++) {
            byte[] body = utf8(fields + values[i] + "}");
            assertThat(ours(body).outcome()).as("value %d", i).startsWith(expected[i]);
            assertThat(ours(body)).as("value %d against jackson", i).isEqualTo(jackson(body));
        }
    }

    @Test
    void agreesWithJacksonOnGeneratedObjects() {
        SeededCases.check(20261207L, 4000, CreateBodyReaderTest::object, CreateBodyReaderTest::show,
            body -> assertThat(ours(body)).isEqualTo(jackson(body)));
    }

    @Test
    void agreesWithJacksonOnGarbageMadeOfJsonFragments() {
        SeededCases.check(20261208L, 4000, CreateBodyReaderTest::garbage, CreateBodyReaderTest::show,
            body -> assertThat(ours(body)).isEqualTo(jackson(body)));
    }

    /** An object of two to four members, keys and values drawn from the contract's and around it. */
    private static byte[] object(Random random) {
        StringBuilder json = new StringBuilder("{");
        int members = 1 + random.nextInt(4);
        for (int i = 0; i < members; i++) {
            if (i > 0) {
                json.append(random.nextInt(20) == 0 ? " , " : ",");
            }
            json.append('"').append(KEYS[random.nextInt(KEYS.length)]).append("\":").append(VALUES[random.nextInt(VALUES.length)]);
        }
        json.append(random.nextInt(30) == 0 ? "" : "}");
        return utf8(json.toString());
    }

    private static byte[] garbage(Random random) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int pieces = 1 + random.nextInt(12);
        for (int i = 0; i < pieces; i++) {
            out.writeBytes(utf8(FRAGMENTS[random.nextInt(FRAGMENTS.length)]));
        }
        return out.toByteArray();
    }

    /** A reader is reused for every body of its thread: nothing one body left decides the next one's verdict. */
    @Test
    void aReusedReaderJudgesEachBodyAlone() throws UserJson.Invalid {
        String[] refusals = {"{\"name\":\"a\",\"email\":\"a@b\",\"x\":1}", "{\"name\":\"\\ud800\",\"email\":\"a@b\"}",
            "{\"name\":\"a\",\"email\":\"a@b\"", "{\"email\":\"a@b\"}", "{\"name\":1,\"email\":\"a@b\"}"};
        CreateBodyReader reader = new CreateBodyReader();
        for (String refused : refusals) {
            byte[] body = utf8(refused + "      ");
            assertThatThrownBy(() -> reader.read(body, body.length)).as(refused).isInstanceOf(UserJson.Invalid.class);
            byte[] next = utf8("{\"name\":\"b\",\"email\":\"b@c\"}");
            NewUser user = reader.read(next, next.length);
            assertThat(name(user) + " " + email(user)).as("after %s", refused).isEqualTo("b b@c");
        }
    }

    /** A reader reads a body's own length of its array, never what lies past it (a longer body read before). */
    @Test
    void readsOnlyTheBodysLengthOfItsArray() throws UserJson.Invalid {
        CreateBodyReader reader = new CreateBodyReader();
        byte[] cut = utf8("{\"name\":\"a\",\"email\":\"a@b\"}");
        assertThatThrownBy(() -> reader.read(cut, cut.length - 1)).as("the closing brace lies past the body")
            .isInstanceOf(UserJson.Invalid.class).matches(e -> ((UserJson.Invalid) e).malformed);
        byte[] padded = utf8("{\"name\":\"a\",\"email\":\"a@b\"} trailing bytes of an earlier body");
        NewUser user = reader.read(padded, cut.length);
        assertThat(name(user) + " " + email(user)).isEqualTo("a a@b");
    }

    @Test
    void anEmptyObjectLacksBothFields() {
        assertThatThrownBy(() -> read(utf8("{}"))).isInstanceOf(UserJson.Invalid.class)
            .hasMessage("name and email are required");
    }
}
