package dev.hotpath.apps.messages.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.hotpath.http.JsonBodies;
import java.io.IOException;

/**
 * Reads a {@code POST /message} request into a {@link NewMessage}, or refuses it with the exact code.
 *
 * <p>The body must be one JSON object with exactly the string fields {@code from}, {@code to} and
 * {@code message}, each once, and nothing after it. The whole body is read before any verdict, so the
 * answer does not depend on where a fault sits: a body that is not JSON at all is
 * {@code malformed_json} (even when an unknown field comes first), then {@code unknown_field} for a
 * field other than the three (the first one is named), then {@code invalid_message} for the first
 * field, in the order from, to, message, that is missing, repeated, not a string or breaks
 * {@link TextRules}. A JSON value that is not an object is {@code invalid_message}.
 *
 * <p>Costs one streaming parse of the body (jackson-core, no tree) and the three strings.
 */
public final class MessageRequests {
    private static final JsonFactory JSON = new JsonFactory();
    private static final String[] FIELDS = {"from", "to", "message"};

    private MessageRequests() {
    }


    /** The message {@code body} asks for. */
    public static NewMessage parse(byte[] body) throws Refusal.Refused {
        String[] values = new String[FIELDS.length];
        int[] seen = new int[FIELDS.length];
        boolean[] string = new boolean[FIELDS.length];
        String unknown = null;
        boolean object;
        try (JsonParser p = JsonBodies.parser(JSON, body)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                throw new Refusal.Refused(Refusal.MALFORMED_JSON, "the body is empty: send one JSON object");
            }
            object = first == JsonToken.START_OBJECT;
            if (object) {
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    JsonToken value = p.nextToken();
                    int field = indexOf(name);
                    if (field < 0) {
                        unknown = unknown == null ? name : unknown;
                    } else if (seen[field]++ == 0 && value == JsonToken.VALUE_STRING) {
                        string[field] = true;
                        values[field] = p.getText();
                    }
                    p.skipChildren();
                }
            } else {
                p.skipChildren();
            }
            if (p.nextToken() != null) {
                throw new Refusal.Refused(Refusal.MALFORMED_JSON, "content after the JSON value: send one JSON object");
            }
        } catch (IOException e) {
            // The body is in memory: every IOException is the parser refusing it (syntax, bad UTF-8, depth).
            throw new Refusal.Refused(Refusal.MALFORMED_JSON, "the body is not valid JSON: " + parserProblem(e));
        }
        if (!object) {
            throw new Refusal.Refused(Refusal.INVALID_MESSAGE, "the body must be a JSON object");
        }
        if (unknown != null) {
            throw new Refusal.Refused(Refusal.UNKNOWN_FIELD,
                "unknown field " + quoted(unknown) + ": only from, to and message are accepted");
        }
        for (int i = 0; i < FIELDS.length; i++) {
            String problem = seen[i] == 0 ? FIELDS[i] + " is required"
                : seen[i] > 1 ? FIELDS[i] + " is given more than once"
                : !string[i] ? FIELDS[i] + " must be a string"
                : i == 2 ? TextRules.messageProblem(values[i]) : TextRules.nameProblem(FIELDS[i], values[i]);
            if (problem != null) {
                throw new Refusal.Refused(Refusal.INVALID_MESSAGE, problem);
            }
        }
        return new NewMessage(values[0], values[1], values[2]);
    }

    private static int indexOf(String name) {
        for (int i = 0; i < FIELDS.length; i++) {
            if (FIELDS[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** A field name for an error text: at most 64 UTF-16 units, in quotes. */
    private static String quoted(String name) {
        return "\"" + (name.length() > 64 ? name.substring(0, 64) + "..." : name) + "\"";
    }

    /**
     * The parser's reason, without what only concerns the parser: where its source lies (a "start
     * marker at [Source: …]") or which of its settings set a limit.
     */
    private static String parserProblem(IOException e) {
        if (e instanceof StreamConstraintsException) {
            return "it nests deeper or runs longer than the parser allows";
        }
        String text = e instanceof JsonProcessingException json ? json.getOriginalMessage() : e.getMessage();
        if (text == null) {
            return "unreadable";
        }
        int end = text.indexOf('\n');
        String line = end < 0 ? text : text.substring(0, end);
        int location = line.indexOf(" (start marker at");
        return location < 0 ? line : line.substring(0, location);
    }
}
