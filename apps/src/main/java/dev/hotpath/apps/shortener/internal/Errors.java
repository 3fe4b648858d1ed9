package dev.hotpath.apps.shortener.internal;

import dev.hotpath.http.JsonBytes;
import dev.hotpath.http.Response;

/** The contract's error responses: {@code {"error":"<code>","message":"<text>"}}, never cached. */
final class Errors {
    static final Response UNAUTHORIZED = Response.builder(401).header("WWW-Authenticate", "Bearer")
        .header("Cache-Control", "no-store")
        .body("application/json", body("unauthorized", "a valid API key is required: Authorization: Bearer <key>"));
    static final Response NOT_FOUND = error(404, "not_found", "no link with this code");
    static final Response GONE = error(410, "gone", "this link was deleted or has expired");
    static final Response UNSUPPORTED_MEDIA_TYPE = error(415, "unsupported_media_type",
        "send the body as JSON with Content-Type: application/json (curl: --json instead of -d)");
    static final Refusal ALIAS_TAKEN = new Refusal(409, "alias_taken", "this alias is already in use");
    static final Refusal CAPACITY_FULL = new Refusal(503, "capacity_full", "the store holds --max-links links");
    static final Refusal OVERLOADED = new Refusal(503, "overloaded", "too many writes are waiting; retry shortly");
    static final Refusal STORE_FAILED = new Refusal(503, "store_unavailable", "the write could not be committed; retry");

    /**
     * A refused create: status, code and message, so that a bulk answer can list it as an item, and the
     * whole response for a single create (every 503 with {@code Retry-After}).
     */
    static final class Refusal {
        final int status;
        final String code;
        final String message;
        final Response response;

        Refusal(int status, String code, String message) {
            this.status = status;
            this.code = code;
            this.message = message;
            this.response = status == 503 ? retryLater(code, message) : error(status, code, message);
        }

        /** The 400 refusal of a request the contract does not accept. */
        static Refusal of(LinkJson.Invalid invalid) {
            return new Refusal(400, invalid.code, invalid.getMessage());
        }
    }

    private Errors() {
    }

    static Response error(int status, String code, String message) {
        return Response.builder(status).header("Cache-Control", "no-store")
            .body("application/json", body(code, message));
    }

    /** A 503 with {@code Retry-After: 1}. */
    static Response retryLater(String code, String message) {
        return Response.builder(503).header("Retry-After", "1").header("Cache-Control", "no-store")
            .body("application/json", body(code, message));
    }

    private static byte[] body(String code, String message) {
        return JsonBytes.write(json -> {
            json.writeStartObject();
            json.writeStringField("error", code);
            json.writeStringField("message", message);
            json.writeEndObject();
        });
    }
}
