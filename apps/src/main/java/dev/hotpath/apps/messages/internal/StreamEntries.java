package dev.hotpath.apps.messages.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Redis stream of {@code POST /message-fast}: its key names and the form of one entry. An entry
 * holds exactly the fields {@code id} (the message's UUIDv7, made by the server that answered 202),
 * {@code from}, {@code to} and {@code message}; {@code created_at} is the id's millisecond, so it is
 * not sent. The worker {@link #parse}s every entry as strictly as the HTTP side checks a request: an
 * entry is written by anything that can reach Redis, and a row the table would silently skip
 * ({@code INSERT OR IGNORE}) must never be acknowledged as stored.
 */
public final class StreamEntries {
    /** The stream {@code POST /message-fast} appends to. */
    public static final String STREAM = "hotpath:messages";
    /** The consumer group of the workers, created with MKSTREAM from id 0. */
    public static final String GROUP = "hotpath-writers";
    /** Where an entry that cannot be stored goes, with its reason. */
    public static final String DEAD = "hotpath:messages:dead";
    /** Per entry id, how many times its insert failed for a reason of its own. */
    public static final String FAILURES = "hotpath:messages:failures";

    private StreamEntries() {
    }

    /** The entry of {@code message}. */
    static Map<String, String> fields(Message message) {
        Map<String, String> fields = new LinkedHashMap<>(8);
        fields.put("id", message.id().toString());
        fields.put("from", message.from());
        fields.put("to", message.to());
        fields.put("message", message.message());
        return fields;
    }

    /** The message an entry holds; thrown {@link Unparseable} names the first problem. */
    static Message parse(Map<String, String> fields) throws Unparseable {
        if (fields == null || fields.isEmpty()) {
            throw new Unparseable("the entry has no fields");
        }
        for (String name : fields.keySet()) {
            if (!name.equals("id") && !name.equals("from") && !name.equals("to") && !name.equals("message")) {
                throw new Unparseable("unknown field " + name);
            }
        }
        String idText = fields.get("id");
        if (idText == null) {
            throw new Unparseable("id is required");
        }
        MessageId id = MessageId.parse(idText);
        if (id == null || id.version() != 7 || id.variant() != 2) {
            throw new Unparseable("id is not a UUIDv7: " + (idText.length() > 40 ? idText.substring(0, 40) + "..." : idText));
        }
        String from = fields.get("from");
        String to = fields.get("to");
        String text = fields.get("message");
        String problem = from == null ? "from is required"
            : to == null ? "to is required"
            : text == null ? "message is required"
            : TextRules.nameProblem("from", from);
        if (problem == null) {
            problem = TextRules.nameProblem("to", to);
        }
        if (problem == null) {
            problem = TextRules.messageProblem(text);
        }
        if (problem != null) {
            throw new Unparseable(problem);
        }
        return Message.create(id, new NewMessage(from, to, text));
    }

    /** An entry that is not a message; its text is the dead letter's reason. */
    static final class Unparseable extends Exception {
        Unparseable(String reason) {
            super(reason, null, false, false);
        }
    }
}
