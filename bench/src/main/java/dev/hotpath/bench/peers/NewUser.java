package dev.hotpath.bench.peers;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * The body of {@code POST /api/users}, read with Jackson's streaming parser and checked by the users
 * API's rules. The whole body is parsed before the fields are judged, so that a body that is not one
 * JSON object is {@code 400 invalid_json} whatever its fields, and only then a wrong field is
 * {@code 422 invalid_user}:
 *
 * <table>
 * <caption>What is checked</caption>
 * <tr><th>rule</th><th>otherwise</th></tr>
 * <tr><td>one JSON object, nothing after it</td><td>{@code 400 invalid_json}</td></tr>
 * <tr><td>{@code name} and {@code email}, both strings, each once, no other field</td><td>{@code 422}</td></tr>
 * <tr><td>{@code name}: {@value #MIN_NAME} to {@value #MAX_NAME} characters</td><td>{@code 422}</td></tr>
 * <tr><td>{@code email}: {@value #MIN_EMAIL} to {@value #MAX_EMAIL} characters, an {@code @} that is
 *     neither first nor last</td><td>{@code 422}</td></tr>
 * </table>
 *
 * Characters are Unicode code points.
 */
record NewUser(String name, String email) {
    static final int MIN_NAME = 1;
    static final int MAX_NAME = 100;
    static final int MIN_EMAIL = 3;
    static final int MAX_EMAIL = 254;

    private static final JsonFactory FACTORY = new JsonFactory();

    /** Why a body was refused: the answer to give. Stackless, as it is an answer, not a fault. */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        final transient Reply reply;

        Refused(Reply reply) {
            super(null, null, false, false);
            this.reply = reply;
        }
    }

    static NewUser parse(byte[] body) throws Refused {
        String name = null;
        String email = null;
        boolean wrongField = false;
        try (JsonParser json = FACTORY.createParser(body)) {
            if (json.nextToken() != JsonToken.START_OBJECT) {
                throw new Refused(Reply.INVALID_JSON);
            }
            while (json.nextToken() == JsonToken.FIELD_NAME) {
                String field = json.currentName();
                JsonToken value = json.nextToken();
                if (value == JsonToken.VALUE_STRING && field.equals("name") && name == null) {
                    name = json.getText();
                } else if (value == JsonToken.VALUE_STRING && field.equals("email") && email == null) {
                    email = json.getText();
                } else {
                    wrongField = true;
                    json.skipChildren();
                }
            }
            if (json.nextToken() != null) {
                throw new Refused(Reply.INVALID_JSON);
            }
        } catch (IOException e) {
            throw new Refused(Reply.INVALID_JSON);
        }
        if (wrongField || name == null || email == null || !validName(name) || !validEmail(email)) {
            throw new Refused(Reply.INVALID_USER);
        }
        return new NewUser(name, email);
    }

    private static boolean validName(String name) {
        int length = name.codePointCount(0, name.length());
        return length >= MIN_NAME && length <= MAX_NAME;
    }

    private static boolean validEmail(String email) {
        int length = email.codePointCount(0, email.length());
        int at = email.indexOf('@', 1);
        return length >= MIN_EMAIL && length <= MAX_EMAIL && at > 0 && at < email.length() - 1;
    }
}
