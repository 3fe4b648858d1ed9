package dev.hotpath.apps.shortener;

/**
 * Checks a presented API key against the stored hashes: {@link ApiKeys} (a data directory's key file)
 * or {@link PostgresApiKeys} (the {@code api_keys} table of the scale-out mode).
 */
public interface KeyVerifier {
    /** Whether {@code presented} is an active key; constant time in the key's content. */
    boolean verify(byte[] presented);
}
