package dev.hotpath.apps.messages.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.hotpath.apps.internal.UtcMillisText;
import java.io.IOException;

/**
 * A stored message as the API shows it. {@code createdAt} is the id's millisecond in RFC 3339 UTC with
 * milliseconds ({@code 2026-11-30T04:00:00.123Z}): formatted once when the message is made and stored
 * as that text, so no read formats a time.
 */
public record Message(MessageId id, String from, String to, String message, String createdAt) {
    /** A new message with id {@code id}, created at the id's millisecond. */
    public static Message create(MessageId id, NewMessage request) {
        return new Message(id, request.from(), request.to(), request.message(),
            UtcMillisText.format(id.millis()));
    }

    /** Writes the message object, keys in the contract's order: id, from, to, message, created_at. */
    public void writeTo(JsonGenerator json) throws IOException {
        json.writeStartObject();
        json.writeStringField("id", id.toString());
        json.writeStringField("from", from);
        json.writeStringField("to", to);
        json.writeStringField("message", message);
        json.writeStringField("created_at", createdAt);
        json.writeEndObject();
    }
}
