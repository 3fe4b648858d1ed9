package dev.hotpath.http;

import java.time.Duration;

/**
 * Every limit the engine enforces, each with its default, its answer and where the rule comes from.
 * Each is enforced while bytes are scanned, never after buffering more than the limit.
 *
 * <table>
 * <caption>Limits</caption>
 * <tr><th>limit</th><th>default</th><th>answer</th><th>rule</th></tr>
 * <tr><td>{@code maxRequestLineBytes}</td><td>8 KiB</td><td>414, close</td><td>RFC 9112 §3</td></tr>
 * <tr><td>{@code maxHeaderBytes}</td><td>16 KiB</td><td>431, close</td><td>RFC 6585 §5</td></tr>
 * <tr><td>{@code maxHeaderFields}</td><td>100</td><td>431, close</td><td>RFC 6585 §5</td></tr>
 * <tr><td>{@code maxBodyBytes} (per route, this is the default)</td><td>64 KiB</td><td>413, close</td>
 *     <td>RFC 9110 §15.5.14</td></tr>
 * <tr><td>chunk-size line (fixed)</td><td>{@value #MAX_CHUNK_LINE_BYTES} B</td><td>400, close</td>
 *     <td>RFC 9112 §7.1</td></tr>
 * <tr><td>{@code requestTimeout}: first byte to last byte of a request</td><td>5 s</td><td>408, close</td>
 *     <td>RFC 9110 §15.5.9</td></tr>
 * <tr><td>{@code idleTimeout}: keep-alive connection with nothing in flight</td><td>75 s</td>
 *     <td>close</td><td>RFC 9112 §9.5</td></tr>
 * <tr><td>{@code maxConnections}</td><td>65,536</td><td>new connection closed at once</td><td></td></tr>
 * <tr><td>{@code maxPendingResponses} per connection</td><td>1,024</td><td>stop reading until they drain</td>
 *     <td></td></tr>
 * <tr><td>{@code maxInFlight}: async requests server-wide</td><td>16,384</td><td>503 + Retry-After</td>
 *     <td>RFC 9110 §15.6.4</td></tr>
 * </table>
 */
public record ServerLimits(
    int maxRequestLineBytes,
    int maxHeaderBytes,
    int maxHeaderFields,
    int maxBodyBytes,
    Duration requestTimeout,
    Duration idleTimeout,
    int maxConnections,
    int maxPendingResponses,
    int maxInFlight) {

    public static final int MAX_REQUEST_LINE_BYTES = 8 * 1024;
    public static final int MAX_HEADER_BYTES = 16 * 1024;
    public static final int MAX_HEADER_FIELDS = 100;
    public static final int MAX_BODY_BYTES = 64 * 1024;
    public static final int MAX_CHUNK_LINE_BYTES = 1024;
    public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);
    public static final Duration IDLE_TIMEOUT = Duration.ofSeconds(75);
    public static final int MAX_CONNECTIONS = 65_536;
    public static final int MAX_PENDING_RESPONSES = 1_024;
    public static final int MAX_IN_FLIGHT = 16_384;

    public static final ServerLimits DEFAULTS = new ServerLimits(MAX_REQUEST_LINE_BYTES, MAX_HEADER_BYTES,
        MAX_HEADER_FIELDS, MAX_BODY_BYTES, REQUEST_TIMEOUT, IDLE_TIMEOUT, MAX_CONNECTIONS,
        MAX_PENDING_RESPONSES, MAX_IN_FLIGHT);

    public ServerLimits {
        positive("maxRequestLineBytes", maxRequestLineBytes);
        positive("maxHeaderBytes", maxHeaderBytes);
        positive("maxHeaderFields", maxHeaderFields);
        if (maxBodyBytes < 0) {
            throw new IllegalArgumentException("maxBodyBytes must be >= 0, was " + maxBodyBytes);
        }
        positive("requestTimeout", requestTimeout.toMillis());
        positive("idleTimeout", idleTimeout.toMillis());
        positive("maxConnections", maxConnections);
        positive("maxPendingResponses", maxPendingResponses);
        positive("maxInFlight", maxInFlight);
    }

    private static void positive(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }

    public ServerLimits withMaxRequestLineBytes(int value) {
        return new ServerLimits(value, maxHeaderBytes, maxHeaderFields, maxBodyBytes, requestTimeout,
            idleTimeout, maxConnections, maxPendingResponses, maxInFlight);
    }

    public ServerLimits withMaxHeaderBytes(int value) {
        return new ServerLimits(maxRequestLineBytes, value, maxHeaderFields, maxBodyBytes, requestTimeout,
            idleTimeout, maxConnections, maxPendingResponses, maxInFlight);
    }

    public ServerLimits withMaxHeaderFields(int value) {
        return new ServerLimits(maxRequestLineBytes, maxHeaderBytes, value, maxBodyBytes, requestTimeout,
            idleTimeout, maxConnections, maxPendingResponses, maxInFlight);
    }

    public ServerLimits withMaxBodyBytes(int value) {
        return new ServerLimits(maxRequestLineBytes, maxHeaderBytes, maxHeaderFields, value, requestTimeout,
            idleTimeout, maxConnections, maxPendingResponses, maxInFlight);
    }

    public ServerLimits withRequestTimeout(Duration value) {
        return new ServerLimits(maxRequestLineBytes, maxHeaderBytes, maxHeaderFields, maxBodyBytes, value,
            idleTimeout, maxConnections, maxPendingResponses, maxInFlight);
    }

    public ServerLimits withIdleTimeout(Duration value) {
        return new ServerLimits(maxRequestLineBytes, maxHeaderBytes, maxHeaderFields, maxBodyBytes,
            requestTimeout, value, maxConnections, maxPendingResponses, maxInFlight);
    }

    public ServerLimits withMaxConnections(int value) {
        return new ServerLimits(maxRequestLineBytes, maxHeaderBytes, maxHeaderFields, maxBodyBytes,
            requestTimeout, idleTimeout, value, maxPendingResponses, maxInFlight);
    }

    public ServerLimits withMaxPendingResponses(int value) {
        return new ServerLimits(maxRequestLineBytes, maxHeaderBytes, maxHeaderFields, maxBodyBytes,
            requestTimeout, idleTimeout, maxConnections, value, maxInFlight);
    }

    public ServerLimits withMaxInFlight(int value) {
        return new ServerLimits(maxRequestLineBytes, maxHeaderBytes, maxHeaderFields, maxBodyBytes,
            requestTimeout, idleTimeout, maxConnections, maxPendingResponses, value);
    }
}
