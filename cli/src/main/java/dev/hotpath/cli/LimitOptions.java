package dev.hotpath.cli;

import dev.hotpath.http.ServerLimits;
import java.time.Duration;
import picocli.CommandLine.Option;

/** One flag per {@link ServerLimits} limit, defaulting to its named constant. */
final class LimitOptions {
    @Option(names = "--max-request-line", defaultValue = "" + ServerLimits.MAX_REQUEST_LINE_BYTES,
        description = "Longest request line in bytes; longer is 414 (default: ${DEFAULT-VALUE}).")
    int maxRequestLine;

    @Option(names = "--max-header-bytes", defaultValue = "" + ServerLimits.MAX_HEADER_BYTES,
        description = "Largest header block in bytes; larger is 431 (default: ${DEFAULT-VALUE}).")
    int maxHeaderBytes;

    @Option(names = "--max-header-fields", defaultValue = "" + ServerLimits.MAX_HEADER_FIELDS,
        description = "Most header fields; more is 431 (default: ${DEFAULT-VALUE}).")
    int maxHeaderFields;

    @Option(names = "--max-body", defaultValue = "" + ServerLimits.MAX_BODY_BYTES,
        description = "Default body limit in bytes for routes without their own; larger is 413 (default: ${DEFAULT-VALUE}).")
    int maxBody;

    @Option(names = "--request-timeout", defaultValue = "5s", converter = Converters.Span.class,
        description = "Time to receive a whole request once it began; then 408 (default: ${DEFAULT-VALUE}).")
    Duration requestTimeout;

    @Option(names = "--idle-timeout", defaultValue = "75s", converter = Converters.Span.class,
        description = "Idle keep-alive connections close after this (default: ${DEFAULT-VALUE}).")
    Duration idleTimeout;

    @Option(names = "--max-connections", defaultValue = "" + ServerLimits.MAX_CONNECTIONS,
        description = "Open connections; new ones beyond are closed at once (default: ${DEFAULT-VALUE}).")
    int maxConnections;

    @Option(names = "--max-pending-responses", defaultValue = "" + ServerLimits.MAX_PENDING_RESPONSES,
        description = "Responses owed on one connection before it stops reading (default: ${DEFAULT-VALUE}).")
    int maxPendingResponses;

    @Option(names = "--max-in-flight", defaultValue = "" + ServerLimits.MAX_IN_FLIGHT,
        description = "Async requests in flight server-wide; more get 503 (default: ${DEFAULT-VALUE}).")
    int maxInFlight;

    ServerLimits toLimits() {
        try {
            return new ServerLimits(maxRequestLine, maxHeaderBytes, maxHeaderFields, maxBody, requestTimeout,
                idleTimeout, maxConnections, maxPendingResponses, maxInFlight);
        } catch (IllegalArgumentException e) {
            throw new InvalidFlags(e.getMessage());
        }
    }
}
