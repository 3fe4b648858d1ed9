package dev.hotpath.http;

/**
 * The request methods the engine routes. A syntactically valid method outside this set is answered
 * {@code 501 Not Implemented} (RFC 9110 §9.1) before any route is consulted; methods are
 * case-sensitive, so {@code get} is such a method.
 */
public enum Method {
    GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS
}
