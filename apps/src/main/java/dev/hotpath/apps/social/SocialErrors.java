package dev.hotpath.apps.social;

import dev.hotpath.http.Response;

/** The contract's error answers, each {@code {"error":"<message>"}}, built once. */
final class SocialErrors {
    static final Response NOT_FOUND = error(404, "not found");
    static final Response INVALID_POST_ID = error(400, "invalid post id");
    static final Response POST_NOT_FOUND = error(404, "post not found");
    static final Response MALFORMED_JSON = error(400, "malformed JSON body");
    static final Response BODY_REQUIRED = error(400, "body is required");
    static final Response BODY_TOO_LONG = error(400, "body must be at most 500 characters");
    static final Response INTERNAL = error(500, "internal server error");
    static final Response OVERLOADED = Response.builder(503).header("Retry-After", "1")
        .body("application/json", "{\"error\":\"overloaded\"}".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    private static final Response[] UNAUTHORIZED = {
        error(401, TokenVerifier.Refusal.MISSING.message()),
        error(401, TokenVerifier.Refusal.INVALID.message()),
        error(401, TokenVerifier.Refusal.BAD_PAYLOAD.message()),
    };

    private SocialErrors() {
    }

    static Response unauthorized(TokenVerifier.Refusal refusal) {
        return UNAUTHORIZED[refusal.ordinal()];
    }

    private static Response error(int status, String message) {
        return Response.json(status, "{\"error\":\"" + message + "\"}");
    }
}
