package dev.hotpath.bench.peers;

/**
 * What the users API answers to a request that reached a route: a status and a JSON body (always
 * {@link UserJson#CONTENT_TYPE}). Each peer writes it with its framework's own response API.
 */
record Reply(int status, byte[] body) {
    static final Reply UNAUTHORIZED = new Reply(401, UserJson.UNAUTHORIZED);
    static final Reply NOT_FOUND = new Reply(404, UserJson.NOT_FOUND);
    static final Reply INVALID_JSON = new Reply(400, UserJson.INVALID_JSON);
    static final Reply UNSUPPORTED_MEDIA_TYPE = new Reply(415, UserJson.UNSUPPORTED_MEDIA_TYPE);
    static final Reply INVALID_USER = new Reply(422, UserJson.INVALID_USER);
}
