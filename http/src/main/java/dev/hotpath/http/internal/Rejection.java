package dev.hotpath.http.internal;

import dev.hotpath.http.Response;

/**
 * Every way the engine refuses a request before (or instead of) a handler, with its status and the
 * JSON error body of the API contracts: {@code {"error":"<code>","message":"<text>"}}. Every
 * rejection closes the connection after its answer: once framing is in doubt, nothing after it on the
 * stream can be trusted, and a timed-out or oversized request has unread bytes behind it.
 */
public enum Rejection {
    // RFC 9112 §3: request line
    MALFORMED_REQUEST_LINE(400, "bad_request", "malformed request line"),
    INVALID_METHOD(400, "bad_request", "invalid method token"),
    UNKNOWN_METHOD(501, "not_implemented", "method not implemented"),
    INVALID_TARGET(400, "bad_request", "invalid request target"),
    UNSUPPORTED_VERSION(505, "http_version_not_supported", "only HTTP/1.0 and HTTP/1.1 are served"),
    REQUEST_LINE_TOO_LONG(414, "uri_too_long", "request line longer than the limit"),
    // RFC 9112 §2.2, §5: line endings and fields
    TOO_MANY_EMPTY_LINES(400, "bad_request", "more empty lines before a request line than the limit"),
    BARE_LF(400, "bad_request", "line ended with LF but no CR"),
    BARE_CR(400, "bad_request", "CR not followed by LF"),
    OBS_FOLD(400, "bad_request", "obsolete line folding is not accepted"),
    WHITESPACE_BEFORE_COLON(400, "bad_request", "whitespace between field name and colon"),
    INVALID_FIELD_NAME(400, "bad_request", "invalid character in a field name"),
    INVALID_FIELD_VALUE(400, "bad_request", "invalid character in a field value"),
    HEADERS_TOO_LARGE(431, "headers_too_large", "header block larger than the limit"),
    TOO_MANY_HEADERS(431, "headers_too_large", "more header fields than the limit"),
    // RFC 9112 §3.2: Host
    MISSING_HOST(400, "bad_request", "HTTP/1.1 request without Host"),
    DUPLICATE_HOST(400, "bad_request", "more than one Host field"),
    INVALID_HOST(400, "bad_request", "Host is not a host with an optional port"),
    // RFC 9110 §5.3: a field that takes one value must not be repeated; which one counted is ambiguous
    DUPLICATE_SINGLE_FIELD(400, "bad_request", "more than one Content-Type or Authorization field"),
    // RFC 9112 §6: message body framing
    INVALID_CONTENT_LENGTH(400, "bad_request", "Content-Length is not a decimal number"),
    DUPLICATE_CONTENT_LENGTH(400, "bad_request", "more than one Content-Length field"),
    CONTENT_LENGTH_WITH_TRANSFER_ENCODING(400, "bad_request", "both Content-Length and Transfer-Encoding"),
    TRANSFER_ENCODING_IN_HTTP10(400, "bad_request", "Transfer-Encoding in an HTTP/1.0 request"),
    UNSUPPORTED_TRANSFER_CODING(501, "not_implemented", "only the chunked transfer coding is supported"),
    INVALID_CHUNK(400, "bad_request", "malformed chunked body"),
    BODY_TOO_LARGE(413, "body_too_large", "request body larger than the limit"),
    // RFC 9110 §10.1.1
    EXPECTATION_FAILED(417, "expectation_failed", "only Expect: 100-continue is supported"),
    // RFC 9110 §15.5.9: the partial-request deadline
    REQUEST_TIMEOUT(408, "request_timeout", "request not completed in time");

    private final int status;
    private final Response response;

    Rejection(int status, String code, String message) {
        this.status = status;
        this.response = Response.json(status, "{\"error\":\"" + code + "\",\"message\":\"" + message + "\"}");
    }

    public int status() {
        return status;
    }

    /** The pre-encoded error response; the engine adds {@code Connection: close} when it closes. */
    public Response response() {
        return response;
    }
}
