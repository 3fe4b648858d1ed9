package dev.hotpath.apps.shortener.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import dev.hotpath.apps.internal.UtcMillisText;
import dev.hotpath.http.JsonBodies;
import dev.hotpath.http.JsonBytes;
import dev.hotpath.http.Response;
import java.io.IOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The shortener's JSON, both ways, with jackson-core's streaming API: the link object written in the
 * contract's key order, and the create request read strictly (an object, known fields only, each of
 * its type, no duplicate keys, nothing after it), alone or as an item of a bulk array.
 */
final class LinkJson {
    /** Most items of one bulk request. */
    static final int MAX_BULK = 1000;
    private static final JsonFactory FACTORY = JsonFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    /**
     * RFC 3339 §5.6's {@code date-time}: seconds and a full offset required (Java's ISO parser would also
     * take {@code 00:00Z}, an empty fraction or {@code +01}); its letters in either case.
     */
    private static final Pattern RFC_3339 =
        Pattern.compile("\\d{4}-\\d{2}-\\d{2}[Tt]\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?([Zz]|[+-]\\d{2}:\\d{2})");


    private LinkJson() {
    }

    /** What a create request asks for, checked for types only; its values are checked by {@code LinkRequests}. */
    record CreateRequest(String url, String alias, boolean isProtected, Instant expiresAt) {
    }

    /** A request the contract refuses, with its error code. */
    static final class Invalid extends Exception {
        final String code;

        Invalid(String code, String message) {
            super(message, null, false, false);
            this.code = code;
        }
    }

    /** One item of a bulk request: what it asks for, or the problem that makes it invalid. */
    record BulkItem(CreateRequest create, Invalid invalid) {
    }

    /** Reads the next create object from {@code parser}, which stands before it. */
    private static CreateRequest readCreate(JsonParser parser) throws Invalid, IOException {
        if (parser.nextToken() != JsonToken.START_OBJECT) {
            throw new Invalid("malformed_json", "the body must be a JSON object");
        }
        return readCreateFields(parser);
    }

    /**
     * Reads one create object's fields; the parser stands on its START_OBJECT and is left on its
     * END_OBJECT even when a field is invalid (the first problem is thrown after the whole object is
     * consumed), so a bulk request can go on with the next item.
     */
    private static CreateRequest readCreateFields(JsonParser parser) throws Invalid, IOException {
        String url = null;
        String alias = null;
        boolean isProtected = false;
        Instant expiresAt = null;
        boolean sawUrl = false;
        Invalid problem = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken value = parser.nextToken();
            try {
                switch (field) {
                    case "url" -> {
                        if (value != JsonToken.VALUE_STRING) {
                            throw new Invalid("invalid_url", "url must be a string");
                        }
                        url = parser.getText();
                        sawUrl = true;
                    }
                    case "alias" -> {
                        if (value == JsonToken.VALUE_NULL) {
                            alias = null;
                        } else if (value == JsonToken.VALUE_STRING) {
                            alias = parser.getText();
                        } else {
                            throw new Invalid("invalid_alias", "alias must be a string");
                        }
                    }
                    case "protected" -> {
                        if (value != JsonToken.VALUE_TRUE && value != JsonToken.VALUE_FALSE) {
                            throw new Invalid("invalid_protected", "protected must be true or false");
                        }
                        isProtected = value == JsonToken.VALUE_TRUE;
                    }
                    case "expires_at" -> {
                        if (value == JsonToken.VALUE_NULL) {
                            expiresAt = null;
                        } else if (value == JsonToken.VALUE_STRING) {
                            expiresAt = parseTime(parser.getText());
                        } else {
                            throw new Invalid("invalid_expiry", "expires_at must be an RFC 3339 timestamp or null");
                        }
                    }
                    default -> throw new Invalid("unknown_field", "unknown field: " + truncate(field));
                }
            } catch (Invalid e) {
                parser.skipChildren();
                if (problem == null) {
                    problem = e;
                }
            }
        }
        if (problem != null) {
            throw problem;
        }
        if (!sawUrl) {
            throw new Invalid("invalid_url", "url is required");
        }
        return new CreateRequest(url, alias, isProtected, expiresAt);
    }

    /** Parses a whole body holding one create object and nothing else. */
    static CreateRequest parseCreate(byte[] body) throws Invalid {
        try (JsonParser parser = JsonBodies.parser(FACTORY, body)) {
            CreateRequest request = readCreate(parser);
            if (parser.nextToken() != null) {
                throw new Invalid("malformed_json", "unexpected content after the JSON object");
            }
            return request;
        } catch (IOException e) {
            throw new Invalid("malformed_json", "the body is not valid JSON");
        }
    }

    /**
     * Parses a bulk body: a JSON array of at most {@value #MAX_BULK} create objects. An item that is
     * not a valid create object is returned as its problem, so the others can still be created.
     *
     * @throws Invalid when the body as a whole is not such an array
     */
    static List<BulkItem> parseBulk(byte[] body) throws Invalid {
        List<BulkItem> items = new ArrayList<>();
        try (JsonParser parser = JsonBodies.parser(FACTORY, body)) {
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                throw new Invalid("malformed_json", "the body must be a JSON array of create objects");
            }
            JsonToken token;
            while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
                if (token == null) {
                    throw new Invalid("malformed_json", "the body is not valid JSON");
                }
                if (items.size() == MAX_BULK) {
                    throw new Invalid("too_many_items", "at most " + MAX_BULK + " items per request");
                }
                if (token != JsonToken.START_OBJECT) {
                    parser.skipChildren();
                    items.add(new BulkItem(null, new Invalid("malformed_json", "an item must be a JSON object")));
                    continue;
                }
                try {
                    items.add(new BulkItem(readCreateFields(parser), null));
                } catch (Invalid e) {
                    items.add(new BulkItem(null, e));
                }
            }
            if (parser.nextToken() != null) {
                throw new Invalid("malformed_json", "unexpected content after the JSON array");
            }
            return items;
        } catch (IOException e) {
            throw new Invalid("malformed_json", "the body is not valid JSON");
        }
    }

    private static Instant parseTime(String text) throws Invalid {
        Instant time;
        try {
            if (!RFC_3339.matcher(text).matches()) {
                throw new DateTimeParseException("not RFC 3339", text, 0);
            }
            time = OffsetDateTime.parse(text.toUpperCase(Locale.ROOT)).toInstant();
        } catch (DateTimeParseException e) {
            throw new Invalid("invalid_expiry", "expires_at must be an RFC 3339 timestamp such as 2027-01-01T00:00:00Z");
        }
        if (!time.isBefore(UtcMillisText.END_OF_YEAR_9999)) {
            throw new Invalid("invalid_expiry", "expires_at must be before the year 10000 (UTC)");
        }
        return time;
    }

    /** Writes the link object in the contract's key order. */
    static void writeLink(JsonGenerator json, String code, String shortUrl, String longUrl, long createdAt,
                          long expiresAt, boolean isProtected, long visits) throws IOException {
        json.writeStartObject();
        json.writeStringField("code", code);
        json.writeStringField("short_url", shortUrl);
        json.writeStringField("long_url", longUrl);
        json.writeStringField("created_at", UtcMillisText.format(createdAt));
        if (expiresAt < 0) {
            json.writeNullField("expires_at");
        } else {
            json.writeStringField("expires_at", UtcMillisText.format(expiresAt));
        }
        json.writeBooleanField("protected", isProtected);
        json.writeNumberField("visits", visits);
        json.writeEndObject();
    }

    /** An {@code application/json} answer that no cache keeps (every API answer is per key and moment). */
    static Response answer(int status, JsonBytes.Body body) {
        return Response.builder(status).header("Cache-Control", "no-store").body("application/json", JsonBytes.write(body));
    }

    /** The {@code 201} of a single create: where the link is, and the link object. */
    static Response created(String code, JsonBytes.Body link) {
        return Response.builder(201).header("Location", "/api/links/" + code).header("Cache-Control", "no-store")
            .body("application/json", JsonBytes.write(link));
    }

    /** Writes one created link of a bulk answer; {@code created} is whatever the caller put in the results. */
    @FunctionalInterface
    interface CreatedLinkWriter {
        void write(JsonGenerator json, Object created) throws IOException;
    }

    /**
     * {@code {"results":[...]}} in input order: per item its {@link Errors.Refusal}, or a created link
     * written by {@code link}.
     */
    static Response bulkAnswer(Object[] results, CreatedLinkWriter link) {
        return answer(200, json -> {
            json.writeStartObject();
            json.writeArrayFieldStart("results");
            for (Object result : results) {
                json.writeStartObject();
                if (result instanceof Errors.Refusal refusal) {
                    json.writeNumberField("status", refusal.status);
                    json.writeStringField("error", refusal.code);
                    json.writeStringField("message", refusal.message);
                } else {
                    json.writeNumberField("status", 201);
                    json.writeFieldName("link");
                    link.write(json, result);
                }
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        });
    }

    private static String truncate(String s) {
        return s.length() > 64 ? s.substring(0, 64) + "..." : s;
    }
}
