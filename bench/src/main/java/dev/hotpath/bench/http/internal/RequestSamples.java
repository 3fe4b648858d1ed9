package dev.hotpath.bench.http.internal;

/** The requests the benchmarks decode: typical of what load generators and API clients send. */
final class RequestSamples {
    static final String GET = "GET /ping HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n";

    static final String JSON_BODY = "{\"url\":\"https://example.com/articles/2026/11/30/a-fairly-long-slug-for-a-test\","
        + "\"alias\":\"launch-2026\",\"protected\":false,\"expires_at\":\"2027-01-01T00:00:00Z\",\"note\":\"abcdefghij\"}";

    static final String POST_JSON = "POST /api/links HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"
        + "User-Agent: hotpath-bench/1\r\nAccept: application/json\r\n"
        + "Authorization: Bearer 0123456789abcdef0123456789abcdef\r\nContent-Type: application/json\r\n"
        + "Content-Length: " + JSON_BODY.length() + "\r\n\r\n" + JSON_BODY;

    private RequestSamples() {
    }
}
