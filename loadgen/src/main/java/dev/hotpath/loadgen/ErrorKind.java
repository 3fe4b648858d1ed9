package dev.hotpath.loadgen;

/** The ways a request can fail other than a wrong answer; each is counted, and any one fails the run. */
public enum ErrorKind {
    /** The connection could not be opened. */
    CONNECT_FAILED,
    /** The server closed the connection, or announced it would, while the run still used it. */
    CONNECTION_CLOSED,
    /** The bytes received are not a valid HTTP/1.1 response. */
    PROTOCOL_ERROR,
    /** No answer by the end of the drain period. */
    TIMEOUT,
    /** The harness itself failed (a scenario threw): the run cannot be trusted, so it fails. */
    GENERATOR_ERROR;

    /** The name used in result.json. */
    public String key() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
